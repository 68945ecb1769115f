import Foundation
import ProvisioOpenPGP

/// Two key pairs standing in for Google's encryption keys (Google rotates with two live at
/// once): RSA-2048 with an encryption subkey, valid from 2001 and never expiring, so a test
/// clock at any date can use them. Made once per run; key generation is slow.
struct GooglePayTestKeys: Sendable {
    let first: OpenPGPSecretKey
    let second: OpenPGPSecretKey

    private static let made = Task<GooglePayTestKeys?, Never> {
        try? await offThePool {
            func key(_ name: String) throws -> OpenPGPSecretKey {
                try OpenPGPSecretKey.generateRSA(
                    userID: "Google Pay test \(name) <\(name)@google.test>", bits: 2048,
                    creationTime: Date(timeIntervalSince1970: 1_000_000_000), validity: nil)
            }
            return try GooglePayTestKeys(first: key("first"), second: key("second"))
        }
    }

    /// The keys, made once for the run off the cooperative pool (`offThePool`).
    static func shared() async throws -> GooglePayTestKeys {
        guard let made = await made.value else { throw TestSetupError("the Google test keys could not be made") }
        return made
    }

    /// A Google key that expires `validity` seconds after `created`.
    static func expiring(created: Date, validity: TimeInterval) async throws -> OpenPGPSecretKey {
        try await offThePool {
            try OpenPGPSecretKey.generateRSA(
                userID: "Google Pay expiring <expiring@google.test>", bits: 2048, creationTime: created,
                validity: validity)
        }
    }
}
