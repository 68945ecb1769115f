import NIOCore

/// Whether a JSON answer has a top-level-looking `"name": "value"` pair, found by scanning its
/// bytes: cheap enough to run on every response of a load run without a JSON parser on the load
/// generator's CPU. Whitespace around the colon is allowed (encoders pretty-print); a key of
/// the same name in a nested object would also match, which the bench's answers never have.
struct ResponseFieldCheck: Sendable {
    let name: String
    let value: String
    private let key: [UInt8]
    private let expected: [UInt8]

    init(name: String, value: String) {
        self.name = name
        self.value = value
        self.key = Array("\"\(name)\"".utf8)
        self.expected = Array("\"\(value)\"".utf8)
    }

    func matches(_ body: ByteBuffer) -> Bool {
        body.withUnsafeReadableBytes { matches(Array($0)) }
    }

    func matches(_ bytes: [UInt8]) -> Bool {
        var start = 0
        while let found = Self.find(key, in: bytes, from: start) {
            var index = found + key.count
            Self.skipSpace(bytes, &index)
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                Self.skipSpace(bytes, &index)
                return bytes.count - index >= expected.count && bytes[index..<index + expected.count].elementsEqual(expected)
            }
            start = found + 1
        }
        return false
    }

    private static func skipSpace(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where bytes[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
