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

    private mutating func appendString(_ text: some StringProtocol) {
        JSONStringEscaper.append(text, to: &bytes)
    }
}
