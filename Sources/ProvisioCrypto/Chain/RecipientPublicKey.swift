import Crypto
import Foundation

/// The key a payload is sealed to, taken from a validated leaf certificate.
public enum RecipientPublicKey: Sendable {
    /// ECC_V2; the recipient builds its multiplication table once it seals repeatedly.
    case p256(P256Recipient)
    /// The RSA key as SubjectPublicKeyInfo DER: swift-crypto's RSA key types are not `Sendable`,
    /// so the key travels as bytes and is parsed where it is used.
    case rsa(subjectPublicKeyInfo: Data)
}
