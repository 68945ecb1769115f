import Crypto
import Foundation

/// Hash algorithms for signatures (RFC 9580 §9.5). SHA-1 and MD5 are refused for signatures.
public enum OpenPGPHashAlgorithm: UInt8, Hashable, Sendable, CaseIterable {
    case sha256 = 8
    /// What Google asks signers to use ("SHA384 as the digest algorithm").
    case sha384 = 9
    case sha512 = 10

    init(id: UInt8) throws(OpenPGPError) {
        guard let algorithm = OpenPGPHashAlgorithm(rawValue: id) else {
            throw OpenPGPError(.unsupportedAlgorithm, "hash algorithm \(id) (SHA-256, SHA-384 and SHA-512 are supported)")
        }
        self = algorithm
    }

    func hasher() -> OpenPGPHasher {
        switch self {
        case .sha256: .sha256(SHA256())
        case .sha384: .sha384(SHA384())
        case .sha512: .sha512(SHA512())
        }
    }
}

/// A running hash of one of the supported algorithms; its digest signs or verifies with RSA.
enum OpenPGPHasher {
    case sha256(SHA256)
    case sha384(SHA384)
    case sha512(SHA512)

    mutating func update<Bytes: DataProtocol>(_ bytes: Bytes) {
        switch self {
        case .sha256(var hasher):
            hasher.update(data: bytes)
            self = .sha256(hasher)
        case .sha384(var hasher):
            hasher.update(data: bytes)
            self = .sha384(hasher)
        case .sha512(var hasher):
            hasher.update(data: bytes)
            self = .sha512(hasher)
        }
    }

    func finalize() -> OpenPGPDigest {
        switch self {
        case .sha256(let hasher): .sha256(hasher.finalize())
        case .sha384(let hasher): .sha384(hasher.finalize())
        case .sha512(let hasher): .sha512(hasher.finalize())
        }
    }
}

/// A finished digest, kept typed: swift-crypto's RSA signs a `Digest` and picks the PKCS #1
/// DigestInfo from its type (RFC 9580 §5.2.2 uses the same prefixes).
enum OpenPGPDigest {
    case sha256(SHA256.Digest)
    case sha384(SHA384.Digest)
    case sha512(SHA512.Digest)

    var bytes: [UInt8] {
        switch self {
        case .sha256(let digest): Array(digest)
        case .sha384(let digest): Array(digest)
        case .sha512(let digest): Array(digest)
        }
    }
}
