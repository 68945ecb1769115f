import Foundation

/// What `MDESPayloadDecrypter` opened: the plaintext (the JSON MDES encrypted, for the caller to
/// parse; it holds a PAN, so it goes nowhere but that parser) and which key opened it.
public struct MDESDecryptedPayload: Sendable {
    /// The decrypted bytes, PKCS#7 padding removed for CBC.
    public let plaintext: Data
    /// `MDESIssuerKey.publicKeyFingerprint` of the key that opened it: during a rotation this says
    /// when MDES has stopped using the previous key.
    public let keyFingerprint: String
}
