import Foundation

/// Hex and base64 as clients send binary values (nonces, signatures, certificates).
public enum BinaryText {
    /// Decodes lowercase or uppercase hex; nil if the text is not even-length hex.
    public static func decodeHex(_ text: String) -> Data? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count % 2 == 0 else { return nil }
        var out = Data(capacity: bytes.count / 2)
        var index = 0
        while index < bytes.count {
            guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Decodes standard or URL-safe base64, padded or not; nil if the text is not base64.
    ///
    /// Strict (RFC 4648): only the alphabet, `=` only as one or two characters completing the
    /// last group, and the unused bits of the last symbol zero, so each byte string has exactly
    /// one spelling. (Foundation's decoder on Linux also reads misplaced padding: `==` as a zero
    /// byte, `AB=C` as two bytes.)
    public static func decodeBase64(_ text: String) -> Data? {
        var symbols = Array(text.utf8)
        var padding = 0
        while symbols.last == UInt8(ascii: "="), padding < 2 {
            symbols.removeLast()
            padding += 1
        }
        let remainder = symbols.count % 4
        guard !symbols.isEmpty, remainder != 1, padding == 0 || remainder + padding == 4 else { return nil }
        var values: [UInt8] = []
        values.reserveCapacity(symbols.count)
        for symbol in symbols {
            guard let value = sextet(symbol) else { return nil }
            values.append(value)
        }
        var out = Data(capacity: symbols.count * 3 / 4)
        var index = 0
        while index + 4 <= values.count {
            let group =
                UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12 | UInt32(values[index + 2]) << 6
                | UInt32(values[index + 3])
            out.append(contentsOf: [UInt8(group >> 16), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)])
            index += 4
        }
        switch values.count - index {
        case 2:
            guard values[index + 1] & 0x0F == 0 else { return nil }
            out.append(values[index] << 2 | values[index + 1] >> 4)
        case 3:
            guard values[index + 2] & 0x03 == 0 else { return nil }
            out.append(values[index] << 2 | values[index + 1] >> 4)
            out.append((values[index + 1] & 0x0F) << 4 | values[index + 2] >> 2)
        default:
            break
        }
        return out
    }

    /// The value of one symbol of the standard or URL-safe alphabet.
    private static func sextet(_ symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// Hex when the text is unambiguously hex (even length, hex digits only), base64 otherwise.
    ///
    /// Base64 of random bytes almost never consists of hex digits alone; PassKit's values are
    /// random, so this rule reads both encodings that issuer apps send in practice.
    public static func decodeHexOrBase64(_ text: String) -> Data? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return decodeHex(trimmed) ?? decodeBase64(trimmed)
    }

    /// Unpadded base64url (RFC 4648 §5), as tokens, cursors, vault records and JOSE use it.
    public static func base64URL<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    public static func lowercaseHex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let alphabet = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(alphabet[Int(byte >> 4)])
            out.append(alphabet[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
