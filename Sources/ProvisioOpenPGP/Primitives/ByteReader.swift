/// A cursor over bytes that never reads past its end: every read that would is a malformed
/// packet, so a length field cannot make a parser reach outside its packet.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    var remaining: Int { bytes.endIndex - position }
    var isAtEnd: Bool { position == bytes.endIndex }

    mutating func byte() throws(OpenPGPError) -> UInt8 {
        guard position < bytes.endIndex else { throw Self.truncated }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func uint16() throws(OpenPGPError) -> Int {
        let high = Int(try byte())
        return high << 8 | Int(try byte())
    }

    mutating func uint32() throws(OpenPGPError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(try byte()) }
        return value
    }

    mutating func take(_ count: Int) throws(OpenPGPError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw Self.truncated }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func rest() -> ArraySlice<UInt8> {
        defer { position = bytes.endIndex }
        return bytes[position...]
    }

    private static let truncated = OpenPGPError(.malformedPacket, "a length runs past the end of its packet")
}

extension Array where Element == UInt8 {
    mutating func appendUInt16(_ value: Int) {
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    mutating func appendUInt32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
