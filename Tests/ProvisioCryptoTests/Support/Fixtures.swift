import Foundation
import ProvisioCore
import ProvisioSandbox

/// The shared fixtures (copied from shared/fixtures into the test bundle) and common values.
enum Fixtures {
    struct ECCV2Vector: Decodable {
        let leafCertificateDERBase64: String
        let leafPublicKeyX963Hex: String
        let ephemeralPrivateKeyHex: String
        let ephemeralPublicKeyX963Hex: String
        let sharedSecretHex: String
        let kdfInputHex: String
        let symmetricKeyHex: String
        let gcmIVHex: String
        let plaintextUTF8: String
        let encryptedPassDataHex: String
        let encryptedPassDataBase64: String
    }

    struct ProductionChain: Decodable {
        let certificatesDERBase64: [String]
        let validAt: String
        let leafNotAfter: String
    }

    static func data(_ name: String) throws -> Data {
        let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)!
        return try Data(contentsOf: url)
    }

    static let eccVector: ECCV2Vector = try! JSONDecoder().decode(ECCV2Vector.self, from: data("ecc-v2-public-vector.json"))
    static let productionChain: ProductionChain = try! JSONDecoder().decode(
        ProductionChain.self, from: data("apple-production-chain-2018.json"))

    static func date(_ iso: String) -> Date { try! Date(iso, strategy: .iso8601) }

    /// The day this suite was written; "today" for expiry checks that must not drift.
    static let today = date("2026-11-22T00:00:00Z")

    static let pan = try! PrimaryAccountNumber("4111111111111111")
    static let expiry = try! CardExpiry(month: 12, year: 2030)
    static let name = try! CardholderName("Jane Appleseed")

    /// One sandbox CA with both leaves, shared by the suites (RSA key generation is slow).
    static let sandboxCA: SandboxCertificateAuthority = try! SandboxCertificateAuthority.generate(
        profile: SandboxCAProfile(now: today))

    static func hex(_ text: String) -> Data { BinaryText.decodeHex(text)! }
}
