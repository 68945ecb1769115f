/// Splits bytes into packets (RFC 9580 §4.2): both header formats, every length form, partial
/// body lengths joined. The number of packets is bounded; joining is linear in the input.
enum PacketReader {
    static func packets(in bytes: ArraySlice<UInt8>, limits: OpenPGPLimits) throws(OpenPGPError) -> [Packet] {
        var reader = ByteReader(bytes)
        var packets: [Packet] = []
        while !reader.isAtEnd {
            try limits.check(packets.count + 1, against: limits.maximumPackets, "packets in one sequence")
            packets.append(try packet(&reader))
        }
        return packets
    }

    static func packets(in bytes: [UInt8], limits: OpenPGPLimits) throws(OpenPGPError) -> [Packet] {
        try packets(in: bytes[...], limits: limits)
    }

    private static func packet(_ reader: inout ByteReader) throws(OpenPGPError) -> Packet {
        let header = try reader.byte()
        guard header & 0x80 != 0 else { throw OpenPGPError(.malformedPacket, "a packet header without its high bit") }
        if header & 0x40 != 0 {
            let tag = header & 0x3F
            return Packet(rawTag: tag, body: try currentFormatBody(&reader, tag: tag))
        }
        let tag = (header >> 2) & 0x0F
        let body: ArraySlice<UInt8>
        switch header & 0x03 {
        case 0: body = try reader.take(Int(try reader.byte()))
        case 1: body = try reader.take(try reader.uint16())
        case 2: body = try reader.take(Int(try reader.uint32()))
        default:
            // Indeterminate length: the packet runs to the end of its enclosing data (GnuPG writes
            // compressed packets this way).
            guard PacketTag(rawValue: tag)?.allowsPartialLengths == true else {
                throw OpenPGPError(.malformedPacket, "an indeterminate length on a packet that cannot have one")
            }
            body = reader.rest()
        }
        return Packet(rawTag: tag, body: Array(body))
    }

    private static func currentFormatBody(_ reader: inout ByteReader, tag: UInt8) throws(OpenPGPError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let first = Int(try reader.byte())
            switch first {
            case ..<192:
                body.append(contentsOf: try reader.take(first))
                return body
            case ..<224:
                let length = (first - 192) << 8 + Int(try reader.byte()) + 192
                body.append(contentsOf: try reader.take(length))
                return body
            case 255:
                body.append(contentsOf: try reader.take(Int(try reader.uint32())))
                return body
            default:
                guard PacketTag(rawValue: tag)?.allowsPartialLengths == true else {
                    throw OpenPGPError(.malformedPacket, "a partial body length on a packet that cannot have one")
                }
                // A partial chunk; the last chunk of the body has a definite length.
                body.append(contentsOf: try reader.take(1 << (first & 0x1F)))
            }
        }
    }
}
