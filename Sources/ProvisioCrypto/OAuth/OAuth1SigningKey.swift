import Crypto
import Foundation
import ProvisioCore
import _CryptoExtras

/// The RSA private key an issuer signs its MDES Customer Service requests with (OAuth 1.0a
/// `RSA-SHA256`), as a tenant hands it to Provisio in PEM. Parsing it here keeps swift-crypto's
/// RSA types out of the server: it seals `pemRepresentation`, shows `publicKeyFingerprint`, and
/// asks for a `signer` when it calls MDES.
public struct OAuth1SigningKey: Sendable {
    /// What Mastercard's OAuth keys are (its developer dashboard issues 2048-bit keys); anything
    /// smaller is refused.
    public static let minimumBits = 2048

    let key: _RSA.Signing.PrivateKey
    /// SHA-256 of the DER SubjectPublicKeyInfo, lower-case hex: names the key without showing it.
    public let publicKeyFingerprint: String

    /// A key from PEM: PKCS#8 "PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY", 2048 bits or more.
    /// The error never repeats the text: it may be most of a private key.
    public init(pem: String) throws {
        let invalid = ProvisioError(
            .oauthSigningKeyInvalid, "The OAuth signing key is not a PEM RSA private key of \(Self.minimumBits) bits or more.")
        guard pem.contains("-----BEGIN"), let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) else {
            throw invalid
        }
        guard key.keySizeInBits >= Self.minimumBits else { throw invalid }
        self.key = key
        self.publicKeyFingerprint = BinaryText.lowercaseHex(SHA256.hash(data: key.publicKey.derRepresentation))
    }

    /// The key in PEM, re-encoded by swift-crypto: what the vault seals.
    public var pemRepresentation: String { key.pemRepresentation }

    /// The signer for this key and the tenant's consumer key.
    public func signer(consumerKey: String) -> OAuth1Signer {
        OAuth1Signer(consumerKey: consumerKey, signingKey: key)
    }
}
