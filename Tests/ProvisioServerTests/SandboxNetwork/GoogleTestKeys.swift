import Foundation
import ProvisioOpenPGP
import ProvisioSandbox

/// OpenPGP keys for Google opaque payment cards in tests: the sandbox Google's, another
/// Google's, the issuer's signing key (registered with Google) and a stranger's. Made once per
/// run, a day old and valid a year: RSA generation is the slow part of these tests.
struct GoogleTestKeys: Sendable {
    let google: SandboxGoogleKey
    let otherGoogle: SandboxGoogleKey
    let issuer: OpenPGPSecretKey
    let otherIssuer: OpenPGPSecretKey

    private static let made = Task<GoogleTestKeys?, Never> {
        try? await offThePool {
            let created = Date().addingTimeInterval(-24 * 3600)
            func issuer(_ name: String) throws -> OpenPGPSecretKey {
                try OpenPGPSecretKey.generateRSA(userID: "\(name) <opc@\(name).invalid>", bits: 2048, creationTime: created)
            }
            return try GoogleTestKeys(
                google: SandboxGoogleKey.generate(at: created), otherGoogle: SandboxGoogleKey.generate(at: created),
                issuer: issuer("issuer"), otherIssuer: issuer("stranger"))
        }
    }

    /// The keys, made once for the run off the cooperative pool (`offThePool`).
    static func shared() async throws -> GoogleTestKeys {
        guard let made = await made.value else { throw TestSetupError("could not generate the Google OPC test keys") }
        return made
    }
}
