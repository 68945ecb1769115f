import Crypto
import Foundation
import ProvisioCore

/// Secrets and identifiers drawn from the system's CSPRNG. Secrets are stored only as
/// `sha256Hex`; identifiers are public.
enum RandomToken {
    /// `prefix` + base64url of 32 random bytes, e.g. `prv_sk_…`.
    static func secret(prefix: String) -> String {
        prefix + BinaryText.base64URL(randomBytes(32))
    }

    /// `prefix` + 20 lowercase hex digits, e.g. `card_3f9a…`.
    static func identifier(prefix: String) -> String {
        prefix + hex(byteCount: 10)
    }

    static func hex(byteCount: Int) -> String {
        BinaryText.lowercaseHex(randomBytes(byteCount))
    }

    static func sha256Hex(_ text: String) -> String {
        BinaryText.lowercaseHex(SHA256.hash(data: Data(text.utf8)))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
