/// A multiprecision integer (RFC 9580 §3.2): a two-octet bit count, then the big-endian value
/// without leading zero octets.
struct MPI: Hashable, Sendable {
    /// The value, big-endian, with no leading zero octets (empty for zero).
    let bytes: [UInt8]

    init<Bytes: Collection>(unsigned bytes: Bytes) where Bytes.Element == UInt8 {
        self.bytes = Array(bytes.drop { $0 == 0 })
    }

    var bitCount: Int {
        guard let first = bytes.first else { return 0 }
        return (bytes.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// The value left-padded with zeros to `length` octets (RSA wants modulus-sized inputs).
    func padded(to length: Int) -> [UInt8] {
        bytes.count >= length ? bytes : [UInt8](repeating: 0, count: length - bytes.count) + bytes
    }

    var encoded: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 2)
        out.appendUInt16(bitCount)
        out.append(contentsOf: bytes)
        return out
    }

    /// Reads an MPI. The bit count must be that of the value (RFC 9580 §3.2: no leading zero
    /// bits), except that writers that count a zero top octet are accepted, as GnuPG does.
    static func read(_ reader: inout ByteReader, maximumBits: Int) throws(OpenPGPError) -> MPI {
        let bits = try reader.uint16()
        guard bits <= maximumBits else { throw OpenPGPError(.limitExceeded, "an MPI of \(bits) bits: more than \(maximumBits)") }
        let value = MPI(unsigned: try reader.take((bits + 7) / 8))
        guard value.bitCount <= bits else { throw OpenPGPError(.malformedPacket, "an MPI longer than its bit count") }
        return value
    }
}
