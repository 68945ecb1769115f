import Foundation
import ProvisioCore

/// Random bytes from the system's cryptographically secure generator, for nonces and ids.
enum SandboxRandom {
    static func bytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// A lowercase hex identifier carrying `byteCount` random bytes.
    static func identifier(prefix: String, byteCount: Int = 16) -> String {
        prefix + BinaryText.lowercaseHex(bytes(byteCount))
    }
}
