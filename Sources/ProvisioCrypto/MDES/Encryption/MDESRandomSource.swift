/// Where MDES envelopes take their random bytes (AES keys, IVs, AAD, OAEP seeds; the sandbox's
/// request ids too): the system's secure generator, or fixed bytes in a test.
public protocol MDESRandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// The system's cryptographically secure generator.
public struct SystemMDESRandomSource: MDESRandomSource {
    public init() {}

    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
