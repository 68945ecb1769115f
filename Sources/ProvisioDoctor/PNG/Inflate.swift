/// A zlib (RFC 1950) / DEFLATE (RFC 1951) decoder, for PNG pixel data.
///
/// Foundation on Linux has no public inflate (`NSData.decompressed(using:)` is Apple-only) and the
/// package declares no zlib module, so the doctor carries this small decoder: stored, fixed and
/// dynamic Huffman blocks, table-driven, with the output capped so that a "zip bomb" PNG cannot
/// exhaust memory, and the Adler-32 checksum verified.
struct Inflate {
    enum Failure: Error, Sendable, Hashable {
        /// The stream is malformed (with what was wrong).
        case corrupt(String)
        /// The output would exceed the cap.
        case outputTooLarge(limit: Int)
    }

    /// Decodes a zlib stream into at most `maximumOutput` bytes.
    static func zlib(_ input: [UInt8], maximumOutput: Int) throws(Failure) -> [UInt8] {
        guard input.count >= 6 else { throw .corrupt("the zlib stream is truncated") }
        let cmf = Int(input[0])
        let flg = Int(input[1])
        guard cmf & 0x0F == 8, cmf >> 4 <= 7 else { throw .corrupt("the zlib stream is not DEFLATE") }
        guard (cmf << 8 | flg) % 31 == 0 else { throw .corrupt("the zlib header check fails") }
        guard flg & 0x20 == 0 else { throw .corrupt("the zlib stream needs a preset dictionary") }
        var inflater = Inflate(input: input, start: 2, maximumOutput: maximumOutput)
        try inflater.run()
        inflater.alignToByte()
        let end = inflater.bytePosition
        guard end + 4 <= input.count else { throw .corrupt("the Adler-32 checksum is missing") }
        let expected = input[end..<end + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard adler32(inflater.output) == expected else { throw .corrupt("the Adler-32 checksum does not match") }
        return inflater.output
    }

    /// Decodes a raw DEFLATE stream (no zlib wrapper).
    static func raw(_ input: [UInt8], maximumOutput: Int) throws(Failure) -> [UInt8] {
        var inflater = Inflate(input: input, start: 0, maximumOutput: maximumOutput)
        try inflater.run()
        return inflater.output
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5552 is the most bytes that can be summed before b could overflow 32 bits.
            let end = min(index + 5552, bytes.count)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }

    // MARK: - Decoder state

    private let input: [UInt8]
    private var position: Int
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    private let maximumOutput: Int
    private(set) var output: [UInt8] = []

    private init(input: [UInt8], start: Int, maximumOutput: Int) {
        self.input = input
        self.position = start
        self.maximumOutput = maximumOutput
        output.reserveCapacity(min(maximumOutput, max(input.count * 4, 1024)))
    }

    /// Where the next unread byte is, once aligned.
    var bytePosition: Int { position - bitCount / 8 }

    mutating func alignToByte() {
        let drop = bitCount % 8
        bitBuffer >>= UInt64(drop)
        bitCount -= drop
    }

    private mutating func refill() {
        while bitCount <= 56, position < input.count {
            bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
            position += 1
            bitCount += 8
        }
    }

    private mutating func bits(_ count: Int) throws(Failure) -> Int {
        if bitCount < count { refill() }
        guard bitCount >= count else { throw .corrupt("the DEFLATE stream is truncated") }
        let value = Int(bitBuffer & ((1 << UInt64(count)) - 1))
        bitBuffer >>= UInt64(count)
        bitCount -= count
        return value
    }

    private mutating func run() throws(Failure) {
        var last = false
        while !last {
            last = try bits(1) == 1
            switch try bits(2) {
            case 0: try stored()
            case 1: try codes(literals: Self.fixedLiterals, distances: Self.fixedDistances)
            case 2:
                let (literals, distances) = try dynamicTables()
                try codes(literals: literals, distances: distances)
            default: throw .corrupt("a DEFLATE block has the reserved type 3")
            }
        }
    }

    private mutating func stored() throws(Failure) {
        alignToByte()
        let length = try bits(16)
        let complement = try bits(16)
        guard length == ~complement & 0xFFFF else { throw .corrupt("a stored block's length check fails") }
        guard output.count + length <= maximumOutput else { throw .outputTooLarge(limit: maximumOutput) }
        var remaining = length
        // Whole bytes still in the bit buffer come first, then the input directly.
        while remaining > 0, bitCount >= 8 {
            output.append(UInt8(try bits(8)))
            remaining -= 1
        }
        guard position + remaining <= input.count else { throw .corrupt("a stored block is truncated") }
        output.append(contentsOf: input[position..<position + remaining])
        position += remaining
    }

    private mutating func decode(_ table: HuffmanTable) throws(Failure) -> Int {
        if bitCount < table.maximumLength { refill() }
        let entry = table.entries[Int(bitBuffer & table.mask)]
        let length = Int(entry & 0xF)
        guard length > 0, length <= bitCount else { throw .corrupt("a Huffman code is invalid or truncated") }
        bitBuffer >>= UInt64(length)
        bitCount -= length
        return Int(entry >> 4)
    }

    private mutating func codes(literals: HuffmanTable, distances: HuffmanTable) throws(Failure) {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                guard output.count < maximumOutput else { throw .outputTooLarge(limit: maximumOutput) }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < Self.lengthBase.count else { throw .corrupt("a length code is out of range") }
            let length = Self.lengthBase[lengthIndex] + (try bits(Self.lengthExtra[lengthIndex]))
            let distanceIndex = try decode(distances)
            guard distanceIndex < Self.distanceBase.count else { throw .corrupt("a distance code is out of range") }
            let distance = Self.distanceBase[distanceIndex] + (try bits(Self.distanceExtra[distanceIndex]))
            guard distance <= output.count else { throw .corrupt("a distance reaches before the start") }
            guard output.count + length <= maximumOutput else { throw .outputTooLarge(limit: maximumOutput) }
            var from = output.count - distance
            for _ in 0..<length {
                output.append(output[from])
                from += 1
            }
        }
    }

    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private mutating func dynamicTables() throws(Failure) -> (HuffmanTable, HuffmanTable) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw .corrupt("a dynamic block has too many codes") }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengthLengths[Self.codeLengthOrder[index]] = UInt8(try bits(3))
        }
        let codeLengthTable = try HuffmanTable(lengths: codeLengthLengths)
        var lengths: [UInt8] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(codeLengthTable)
            switch symbol {
            case 0...15:
                lengths.append(UInt8(symbol))
            case 16:
                guard let previous = lengths.last else { throw .corrupt("a repeat code has nothing to repeat") }
                lengths += repeatElement(previous, count: 3 + (try bits(2)))
            case 17:
                lengths += repeatElement(0, count: 3 + (try bits(3)))
            default:
                lengths += repeatElement(0, count: 11 + (try bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw .corrupt("code lengths overrun the table") }
        guard lengths[256] > 0 else { throw .corrupt("a dynamic block has no end-of-block code") }
        return (
            try HuffmanTable(lengths: Array(lengths[0..<literalCount])),
            try HuffmanTable(lengths: Array(lengths[literalCount...]))
        )
    }

    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    // The fixed codes of RFC 1951 §3.2.6 always build.
    private static let fixedLiterals = try! HuffmanTable(
        lengths: [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112)
            + [UInt8](repeating: 7, count: 24) + [UInt8](repeating: 8, count: 8))
    private static let fixedDistances = try! HuffmanTable(lengths: [UInt8](repeating: 5, count: 30))
}
