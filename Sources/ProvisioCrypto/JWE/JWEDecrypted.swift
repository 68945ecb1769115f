import Crypto
import Foundation

/// What `JWEDecrypter` found in a JWE: the protected header's fields and the plaintext.
///
/// The plaintext is authentic — it and every header field below were covered by the GCM tag.
public struct JWEDecrypted: Sendable {
    /// Always "ECDH-ES"; anything else is refused before decryption.
    public let algorithm: String
    /// Always "A256GCM"; anything else is refused before decryption.
    public let encryption: String
    /// "kid": which recipient key the sender meant.
    public let keyID: String?
    /// "cty": the plaintext's content type.
    public let contentType: String?
    /// "epk": the sender's ephemeral key.
    public let ephemeralPublicKey: P256.KeyAgreement.PublicKey
    /// The protected header as received (UTF-8 JSON), for fields this type does not lift out.
    public let protectedHeader: Data
    public let plaintext: Data
}
