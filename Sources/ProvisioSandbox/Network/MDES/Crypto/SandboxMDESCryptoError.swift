/// Why the sandbox's MDES could not encrypt; the caller turns it into
/// `sandbox_mdes_encryption_failed` or `sandbox_mdes_key_invalid`.
enum SandboxMDESCryptoError: Error, Sendable {
    /// The issuer's key is not an RSA key the envelope can use (or a message does not fit it).
    case keyUnusable
}
