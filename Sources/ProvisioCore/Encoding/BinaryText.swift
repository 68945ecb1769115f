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
    public static func decodeBase64(_ text: String) -> Data? {
        var normalised = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !normalised.isEmpty else { return nil }
        let remainder = normalised.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { normalised += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: normalised)
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
