/// Why `MDESPayloadEncryptor` could not use a key; the caller turns it into
/// `mdes_encryption_failed` or `mdes_encryption_key_invalid`.
enum MDESEncryptionError: Error, Sendable {
    /// The receiver's key is not an RSA key the envelope can use (or a message does not fit it).
    case keyUnusable
}
