import Foundation
import ProvisioCore

/// Base64url without padding (RFC 7515 §2), as every JOSE segment is written.
///
/// Decoding is strict on purpose: `BinaryText.decodeBase64` also takes `+`, `/`, `=` and
/// non-zero trailing bits, so a token could be respelled without changing its bytes. We accept
/// only the one canonical spelling of each byte string.
enum Base64URL {
    static func encode<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        BinaryText.base64URL(bytes)
    }

    /// The bytes of canonical unpadded base64url text; nil for anything else. Empty text is
    /// empty data (an empty JWE ciphertext is legal).
    static func decode<Text: StringProtocol>(_ text: Text) -> Data? {
        guard !text.isEmpty else { return Data() }
        guard text.utf8.allSatisfy(isAlphabet), let bytes = BinaryText.decodeBase64(String(text)),
            encode(bytes) == text
        else { return nil }
        return bytes
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
