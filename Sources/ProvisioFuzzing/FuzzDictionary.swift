/// A target's `dictionary` as a libFuzzer dictionary file (`-dict=`): one quoted entry a line,
/// `\"`, `\\` and `\xNN` escaped. Written from the target when a run starts (`provisio-fuzz
/// --print-dictionary`), so the Swift list stays the one source.
public enum FuzzDictionary {
    /// libFuzzer skips longer entries without a word (its `Word` holds 64 bytes).
    public static let maxEntryLength = 64

    public static func render(_ entries: [[UInt8]], name: String) -> String {
        var text = "# libFuzzer dictionary of the \(name) target, from its FuzzTarget.dictionary.\n"
        for entry in entries where !entry.isEmpty && entry.count <= maxEntryLength {
            text += "\"" + escape(entry) + "\"\n"
        }
        return text
    }

    static func escape(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789abcdef".unicodeScalars)
                text += "\\x"
                text.unicodeScalars.append(digits[Int(byte >> 4)])
                text.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return text
    }
}
