/// One packet: its type (kept raw, so an unknown type can be skipped or refused in context)
/// and its body, with partial body lengths already joined.
struct Packet: Sendable {
    let rawTag: UInt8
    let body: [UInt8]

    var tag: PacketTag? { PacketTag(rawValue: rawTag) }

    init(rawTag: UInt8, body: [UInt8]) {
        self.rawTag = rawTag
        self.body = body
    }

    init(_ tag: PacketTag, body: [UInt8]) {
        self.init(rawTag: tag.rawValue, body: body)
    }

    /// The packet in the current (RFC 9580 §4.2.1) format with a definite length.
    var encoded: [UInt8] {
        var out: [UInt8] = [0xC0 | rawTag]
        out.reserveCapacity(body.count + 6)
        switch body.count {
        case ..<192:
            out.append(UInt8(body.count))
        case ..<8384:
            let value = body.count - 192
            out.append(UInt8(value >> 8 + 192))
            out.append(UInt8(value & 0xFF))
        default:
            out.append(0xFF)
            out.appendUInt32(UInt32(body.count))
        }
        out.append(contentsOf: body)
        return out
    }

    static func encode(_ packets: [Packet]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(packets.reduce(0) { $0 + $1.body.count + 6 })
        for packet in packets { out.append(contentsOf: packet.encoded) }
        return out
    }
}
