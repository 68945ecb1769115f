/// A literal data packet (RFC 9580 §5.9): a format octet, a file name, a date, the data.
struct LiteralDataPacket: Sendable {
    /// 'b' binary, 't' text, 'u' UTF-8 text.
    let format: UInt8
    let fileName: [UInt8]
    let date: UInt32
    let data: ArraySlice<UInt8>

    init(format: UInt8, fileName: [UInt8], date: UInt32, data: ArraySlice<UInt8>) {
        self.format = format
        self.fileName = fileName
        self.date = date
        self.data = data
    }

    static func read(_ body: [UInt8]) throws(OpenPGPError) -> LiteralDataPacket {
        var reader = ByteReader(body)
        let format = try reader.byte()
        guard [UInt8(ascii: "b"), UInt8(ascii: "t"), UInt8(ascii: "u"), UInt8(ascii: "m")].contains(format) else {
            throw OpenPGPError(.malformedPacket, "a literal data packet of an unknown format")
        }
        let fileName = Array(try reader.take(Int(try reader.byte())))
        let date = try reader.uint32()
        return LiteralDataPacket(format: format, fileName: fileName, date: date, data: reader.rest())
    }

    var body: [UInt8] {
        var out: [UInt8] = [format, UInt8(fileName.count)]
        out.reserveCapacity(data.count + fileName.count + 6)
        out.append(contentsOf: fileName)
        out.appendUInt32(date)
        out.append(contentsOf: data)
        return out
    }
}
