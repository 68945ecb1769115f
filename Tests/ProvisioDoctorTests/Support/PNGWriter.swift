import Foundation

/// Writes PNGs for the tests — any size, colour type, bit depth and Adam7 — so the decoder is
/// tested on files made independently of it. The pixel data is compressed with a small
/// fixed-Huffman LZ77 encoder (matches against the previous row and pixel), or stored.
struct PNGWriter {
    var width: Int
    var height: Int
    var colorType: UInt8 = 2
    var bitDepth: UInt8 = 8
    var interlaced = false
    var palette: [UInt8] = []
    var transparency: [UInt8] = []
    /// Fixed-Huffman compression; stored blocks when false (to make a large file).
    var compressed = true
    /// The samples of pixel (x, y), each 0...(2^bitDepth - 1).
    var samples: (Int, Int) -> [Int]

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]! }

    func data() -> Data {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = Self.be32(UInt32(width)) + Self.be32(UInt32(height))
        header += [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
        png += Self.chunk("IHDR", header)
        if !palette.isEmpty { png += Self.chunk("PLTE", palette) }
        if !transparency.isEmpty { png += Self.chunk("tRNS", transparency) }
        let lines = scanlines()
        let rowBytes = (width * channels * Int(bitDepth) + 7) / 8 + 1
        png += Self.chunk("IDAT", compressed ? Self.zlibFixed(lines, distances: [rowBytes, 1]) : Self.zlibStored(lines))
        png += Self.chunk("IEND", [])
        return Data(png)
    }

    /// Filter type 0 rows, pass by pass when interlaced.
    func scanlines() -> [UInt8] {
        let passes: [(Int, Int, Int, Int)] =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            var y = y0
            while y < height {
                guard x0 < width else { break }
                out.append(0)
                if bitDepth >= 8 {
                    // Whole bytes: the common case, kept fast for card-sized images.
                    var x = x0
                    while x < width {
                        for sample in samples(x, y) {
                            if bitDepth == 16 { out.append(UInt8(sample >> 8)) }
                            out.append(UInt8(sample & 0xFF))
                        }
                        x += dx
                    }
                    y += dy
                    continue
                }
                var bits: [Int] = []
                var x = x0
                while x < width {
                    for sample in samples(x, y) {
                        for bit in (0..<Int(bitDepth)).reversed() { bits.append(sample >> bit & 1) }
                    }
                    x += dx
                }
                while bits.count % 8 != 0 { bits.append(0) }
                for index in stride(from: 0, to: bits.count, by: 8) {
                    out.append(UInt8(bits[index..<index + 8].reduce(0) { $0 << 1 | $1 }))
                }
                y += dy
            }
        }
        return out
    }

    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var index = 0
        repeat {
            let count = min(65535, bytes.count - index)
            let last: UInt8 = index + count == bytes.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            out += bytes[index..<index + count]
            index += count
        } while index < bytes.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(b << 16 | a)
    }

    /// zlib with one fixed-Huffman block (RFC 1951 §3.2.6): greedy matches at the given distances.
    static func zlibFixed(_ bytes: [UInt8], distances: [Int]) -> [UInt8] {
        var writer = BitWriter()
        writer.bits(1, 1)
        writer.bits(1, 2)
        var index = 0
        while index < bytes.count {
            var best = (length: 0, distance: 0)
            for distance in distances where distance <= index && distance <= 32768 {
                var length = 0
                while length < 258, index + length < bytes.count, bytes[index + length] == bytes[index + length - distance] {
                    length += 1
                }
                if length > best.length { best = (length, distance) }
            }
            if best.length >= 3 {
                let lengthCode = lengthBase.lastIndex { $0 <= best.length }!
                writer.literalLength(257 + lengthCode)
                writer.bits(best.length - lengthBase[lengthCode], lengthExtra[lengthCode])
                let distanceCode = distanceBase.lastIndex { $0 <= best.distance }!
                writer.huffman(distanceCode, length: 5)
                writer.bits(best.distance - distanceBase[distanceCode], distanceExtra[distanceCode])
                index += best.length
            } else {
                writer.literalLength(Int(bytes[index]))
                index += 1
            }
        }
        writer.literalLength(256)
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return [0x78, 0x01] + writer.finish() + be32(b << 16 | a)
    }

    static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var count: UInt32 = 0

        /// `n` bits of `value`, least significant first (headers, extra bits).
        mutating func bits(_ value: Int, _ n: Int) {
            for bit in 0..<n { push(UInt32(value >> bit & 1)) }
        }

        /// A Huffman code, most significant bit first.
        mutating func huffman(_ code: Int, length: Int) {
            for bit in (0..<length).reversed() { push(UInt32(code >> bit & 1)) }
        }

        /// A literal/length symbol in the fixed code.
        mutating func literalLength(_ symbol: Int) {
            switch symbol {
            case 0...143: huffman(0x30 + symbol, length: 8)
            case 144...255: huffman(0x190 + symbol - 144, length: 9)
            case 256...279: huffman(symbol - 256, length: 7)
            default: huffman(0xC0 + symbol - 280, length: 8)
            }
        }

        mutating func push(_ bit: UInt32) {
            current |= bit << count
            count += 1
            if count == 8 {
                bytes.append(UInt8(current))
                current = 0
                count = 0
            }
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(current)) }
            return bytes
        }
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Card art 1536 × 969 in RGB: a blue card, squared.
    static func squaredCard(width: Int = 1536, height: Int = 969) -> PNGWriter {
        PNGWriter(width: width, height: height) { x, _ in [20, 60 + x % 40, 120] }
    }

    /// Whether (x, y) lies outside a card of this size with corners rounded to `radius`.
    static func outsideRoundedCorner(_ x: Int, _ y: Int, width: Int, height: Int, radius: Int) -> Bool {
        let cx = x < radius ? radius : x >= width - radius ? width - radius - 1 : x
        let cy = y < radius ? radius : y >= height - radius ? height - radius - 1 : y
        let (dx, dy) = (x - cx, y - cy)
        return dx * dx + dy * dy > radius * radius
    }
}
