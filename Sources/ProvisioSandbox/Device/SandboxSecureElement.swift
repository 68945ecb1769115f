import Crypto
import Foundation
import ProvisioCore

/// A device's secure element: a P-256 signing key that never leaves it. The device signs the
/// nonce of every add-card session with it; Apple's service checks that signature.
public struct SandboxSecureElement: Sendable {
    private let privateKey: P256.Signing.PrivateKey

    /// A secure element with a fresh key.
    public init() {
        self.init(privateKey: P256.Signing.PrivateKey())
    }

    /// A secure element with a given key (tests use it to sign with a known key).
    public init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// ECDSA P-256 / SHA-256 over `message`, DER encoded (the form PassKit's `nonceSignature` has).
    func signature(for message: Data) throws -> Data {
        do {
            return try privateKey.signature(for: message).derRepresentation
        } catch {
            throw ProvisioError(.sandboxSecureElementFailed, "The \(Self.self) could not sign the nonce.")
        }
    }
}
