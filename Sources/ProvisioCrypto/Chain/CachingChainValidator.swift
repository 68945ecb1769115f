import Crypto
import Foundation
import ProvisioCore

/// Remembers chains that passed validation, keyed by SHA-256 of the scheme and the exact
/// certificate bytes. PassKit hands every device the same Apple chain, so parsing and the
/// signature checks run once per chain; validity dates are still checked on every call.
/// Refusals are not cached (they are cheap to recompute and may depend on time).
public final class CachingChainValidator: AppleChainValidating {
    public let validator: AppleCertificateChainValidator
    public let capacity: Int
    private let cache = Locked([Data: ValidatedAppleChain]())

    public init(validator: AppleCertificateChainValidator, capacity: Int = 256) {
        self.validator = validator
        self.capacity = capacity
    }

    public func validate(base64Certificates: [String], scheme: EncryptionScheme, at time: Date) throws -> ValidatedAppleChain {
        var hasher = SHA256()
        hasher.update(data: Data(scheme.rawValue.utf8))
        for certificate in base64Certificates {
            hasher.update(data: Data([0x1F]))
            hasher.update(data: Data(certificate.utf8))
        }
        let key = Data(hasher.finalize())
        if let cached = cache.withLock({ $0[key] }) {
            try AppleCertificateChainValidator.checkValidity(of: cached, at: time)
            return cached
        }
        let validated = try validator.validate(base64Certificates: base64Certificates, scheme: scheme, at: time)
        cache.withLock { cache in
            // Emptied when full: simple and bounded, and a miss only costs one full validation.
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = validated
        }
        return validated
    }

    public var cachedChainCount: Int { cache.withLock { $0.count } }
}
