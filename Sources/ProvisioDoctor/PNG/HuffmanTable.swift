/// A canonical Huffman code as a lookup table indexed by the next `maximumLength` input bits
/// (DEFLATE packs codes starting from their most significant bit, so indices are bit-reversed).
/// Each entry is `symbol << 4 | codeLength`; a zero length marks a bit pattern no code uses.
struct HuffmanTable: Sendable {
    let entries: [UInt32]
    let maximumLength: Int
    let mask: UInt64

    init(lengths: [UInt8]) throws(Inflate.Failure) {
        let maximumLength = max(1, Int(lengths.max() ?? 0))
        guard maximumLength <= 15 else { throw .corrupt("a Huffman code is longer than 15 bits") }
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { counts[Int(length)] += 1 }
        // Over-subscribed codes are malformed; incomplete ones are allowed (RFC 1951 permits a
        // single distance code) and their unused patterns stay zero.
        var left = 1
        for length in 1...15 {
            left = left << 1 - counts[length]
            guard left >= 0 else { throw .corrupt("a Huffman code is over-subscribed") }
        }
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1...15 {
            nextCode[length] = code
            code = (code + counts[length]) << 1
        }
        var entries = [UInt32](repeating: 0, count: 1 << maximumLength)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let length = Int(length)
            let codeValue = nextCode[length]
            nextCode[length] += 1
            var reversed = 0
            for bit in 0..<length where codeValue & (1 << bit) != 0 {
                reversed |= 1 << (length - 1 - bit)
            }
            var index = reversed
            while index < entries.count {
                entries[index] = UInt32(symbol) << 4 | UInt32(length)
                index += 1 << length
            }
        }
        self.entries = entries
        self.maximumLength = maximumLength
        self.mask = (1 << UInt64(maximumLength)) - 1
    }
}
