/// Writes a JSON string literal as `JSONEncoder` with `.withoutEscapingSlashes` does, and as
/// the canonical form promises: `\"`, `\\`, and U+0000–U+001F as `\b \f \n \r \t` or `\u00xx`
/// (lowercase hex); everything else, `/` and U+007F included, as its raw UTF-8 bytes. The one
/// escaper of the package: the canonical form that keys idempotency and the flat objects that
/// are sealed must never drift apart.
enum JSONStringEscaper {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func append(_ text: some StringProtocol, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default:
                // Multi-byte UTF-8 sequences are copied byte by byte; a Swift string is always
                // valid UTF-8, so the output is too.
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
