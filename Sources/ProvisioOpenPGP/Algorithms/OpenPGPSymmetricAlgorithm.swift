/// Symmetric ciphers for the encrypted data (RFC 9580 §9.3): AES only. Google asks for AES-256.
public enum OpenPGPSymmetricAlgorithm: UInt8, Hashable, Sendable, CaseIterable {
    case aes128 = 7
    case aes192 = 8
    case aes256 = 9

    var keyByteCount: Int {
        switch self {
        case .aes128: 16
        case .aes192: 24
        case .aes256: 32
        }
    }
}
