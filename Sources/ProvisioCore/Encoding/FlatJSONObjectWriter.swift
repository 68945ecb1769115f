/// Writes a flat JSON object of text members, byte for byte as `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` writes the same members — without the encoder's
/// boxing and dictionary sorting, which showed in the Apple Pay endpoint's profile (the pass
/// payload and the TAV are built on every request). Callers give the keys already sorted.
public struct FlatJSONObjectWriter: Sendable {
    private var bytes: [UInt8]
    private var lastKey: String?

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Appends `"key":"value"`. Keys must come in ascending order, as `.sortedKeys` puts them.
    public mutating func member(_ key: String, _ value: some StringProtocol) {
        precondition(lastKey.map { $0 < key } ?? true, "FlatJSONObjectWriter keys must be given in ascending order.")
        lastKey = key
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        appendString(value)
    }

    /// The finished object's UTF-8 bytes.
    public func finish() -> [UInt8] {
        bytes + [UInt8(ascii: "}")]
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func appendString(_ text: some StringProtocol) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)  // UTF-8 passes through, as JSONEncoder leaves it.
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
