import Foundation
import ProvisioCore
import ProvisioSandbox

enum SandboxFixtures {
    /// 2026-03-01T10:00:00Z; every test clock starts here, and both CAs are valid then.
    static let start = Date(timeIntervalSince1970: 1_772_359_200)

    /// Generated once per run: RSA key generation is slow.
    static let ca = try! SandboxCertificateAuthority.generate(profile: SandboxCAProfile(now: start))
    /// Another, equally well-formed CA: a payload sealed to its leaves is sealed to the wrong key.
    static let otherCA = try! SandboxCertificateAuthority.generate(profile: SandboxCAProfile(now: start))

    static let pan = try! PrimaryAccountNumber("5555 5555 5555 4444")
    static let expiry = try! CardExpiry(slashed: "09/29")
    static let name = try! CardholderName("Jane Appleseed")
    static let primaryAccountIdentifier = "card_7f3a"
}

/// How an app sends binary values to its issuer's server; both must work.
enum BinaryEncoding: String, Sendable, CaseIterable {
    case hex
    case base64

    func text(_ data: Data) -> String {
        switch self {
        case .hex: BinaryText.lowercaseHex(data)
        case .base64: data.base64EncodedString()
        }
    }
}
