import Foundation
import Testing

@testable import ProvisioDoctor

/// The inflate (the system's zlib) and PNG decoding under the corner check, on streams made by
/// zlib (Python's, level 9: fixed and dynamic Huffman) and by `PNGWriter` (stored blocks, every
/// PNG format). PNGZlibFailureTests has the truncated, oversized and checksum-failing streams.
@Suite struct PNGDecodingTests {
    @Test func inflatesFixedHuffmanStreams() throws {
        let hello: [UInt8] = [120, 218, 203, 72, 205, 201, 201, 87, 200, 64, 39, 1, 104, 3, 8, 177]
        #expect(try Zlib.inflate(hello, maximumOutput: 100) == Array("hello hello hello hello".utf8))
        let empty: [UInt8] = [120, 218, 3, 0, 0, 0, 0, 1]
        #expect(try Zlib.inflate(empty, maximumOutput: 0) == [])
    }

    @Test func inflatesStoredBlocksAcrossBlockBoundaries() throws {
        let bytes = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 * 31 + $0 >> 8) }
        #expect(try Zlib.inflate(PNGWriter.zlibStored(bytes), maximumOutput: bytes.count) == bytes)
    }

    @Test func inflateRefusesCorruptAndOversizedStreams() {
        let hello: [UInt8] = [120, 218, 203, 72, 205, 201, 201, 87, 200, 64, 39, 1, 104, 3, 8, 177]
        #expect(throws: Zlib.Failure.outputTooLarge(limit: 10)) { try Zlib.inflate(hello, maximumOutput: 10) }
        var badChecksum = hello
        badChecksum[badChecksum.count - 1] ^= 1
        #expect(throws: Zlib.Failure.checksumMismatch) { try Zlib.inflate(badChecksum, maximumOutput: 100) }
        #expect(throws: Zlib.Failure.truncated) { try Zlib.inflate(Array(hello.prefix(9)), maximumOutput: 100) }
        #expect(throws: Zlib.Failure.corrupt("invalid block type")) {
            try Zlib.inflate([0x78, 0x01, 0xFF, 0xFF, 0xFF, 0xFF], maximumOutput: 100)
        }
        // A distance reaching before the start of the output.
        #expect(throws: Zlib.Failure.corrupt("invalid distance too far back")) {
            try Zlib.inflate([0x78, 0x01, 0x03, 0x02, 0x00, 0, 0, 0, 0], maximumOutput: 100)
        }
    }

    @Test func decodesTheExamplesCardArt() throws {
        // Written by Python's zlib at level 9 (dynamic Huffman), filter type 1 on every row.
        let data = try Data(contentsOf: URL(fileURLWithPath: ExampleCopy.example + "/" + ExampleCopy.cardArt))
        let image = try PNGImage(data: data, maximumPixels: 1 << 22)
        #expect((image.width, image.height, image.colorType, image.bitDepth) == (1536, 969, 2, 8))
        // The ring of the bank's mark, at (170, 100), and the background just inside it.
        #expect(image.pixel(x: 170, y: 100) == (236, 240, 244, 255))
        #expect(image.pixel(x: 170, y: 170).red < 40)
        #expect(CornerInspection.inspect(image) == .squared)
    }

    @Test(arguments: [
        (UInt8(0), UInt8(1)), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8), (4, 8), (4, 16),
        (6, 8), (6, 16),
    ])
    func decodesEveryColourTypeAndDepth(colorType: UInt8, bitDepth: UInt8) throws {
        for interlaced in [false, true] {
            let maximum = (1 << Int(bitDepth)) - 1
            let value = { (x: Int, y: Int) in (x * 5 + y * 3) % (maximum + 1) }
            var writer = PNGWriter(width: 13, height: 11, colorType: colorType, bitDepth: bitDepth, interlaced: interlaced) {
                x, y in
                let v = value(x, y)
                switch colorType {
                case 0, 3: return [v]
                case 2: return [v, maximum - v, v / 2]
                case 4: return [v, maximum - v]
                default: return [v, maximum - v, v / 2, maximum]
                }
            }
            if colorType == 3 {
                writer.palette = (0...maximum).flatMap { [UInt8($0 % 256), UInt8(255 - $0 % 256), 7] }
            }
            let image = try PNGImage(data: writer.data(), maximumPixels: 1000)
            #expect(image.interlaced == interlaced)
            for (x, y) in [(0, 0), (12, 0), (0, 10), (12, 10), (5, 7), (3, 4)] {
                let pixel = image.pixel(x: x, y: y)
                let expected = Self.expected(value(x, y), colorType: colorType, maximum: maximum)
                #expect(
                    [pixel.red, pixel.green, pixel.blue, pixel.alpha] == expected, "(\(x), \(y)) interlaced: \(interlaced)")
            }
        }
    }

    /// What `pixel(x:y:)` returns for the samples `decodesEveryColourTypeAndDepth` writes.
    static func expected(_ v: Int, colorType: UInt8, maximum: Int) -> [UInt8] {
        func scale(_ sample: Int) -> UInt8 { UInt8(sample * 255 / maximum) }
        switch colorType {
        case 0: return [scale(v), scale(v), scale(v), 255]
        case 3: return [UInt8(v % 256), UInt8(255 - v % 256), 7, 255]
        case 2: return [scale(v), scale(maximum - v), scale(v / 2), 255]
        case 4: return [scale(v), scale(v), scale(v), scale(maximum - v)]
        default: return [scale(v), scale(maximum - v), scale(v / 2), 255]
        }
    }

    @Test func readsTransparencyChunks() throws {
        var palette = PNGWriter(width: 4, height: 4, colorType: 3) { x, _ in [x % 2] }
        palette.palette = [10, 20, 30, 40, 50, 60]
        palette.transparency = [0]
        let image = try PNGImage(data: palette.data(), maximumPixels: 100)
        #expect(image.pixel(x: 0, y: 0).alpha == 0)
        #expect(image.pixel(x: 1, y: 0) == (40, 50, 60, 255))
        var rgb = PNGWriter(width: 4, height: 4) { x, _ in x == 0 ? [1, 2, 3] : [9, 9, 9] }
        rgb.transparency = [0, 1, 0, 2, 0, 3]
        let keyed = try PNGImage(data: rgb.data(), maximumPixels: 100)
        #expect(keyed.pixel(x: 0, y: 3).alpha == 0)
        #expect(keyed.pixel(x: 1, y: 3).alpha == 255)
    }

    @Test func unfiltersEveryFilterType() throws {
        let previous: [UInt8] = [10, 20, 30, 40, 50, 60]
        var sub: [UInt8] = [1, 2, 3, 4, 5, 6]
        try PNGImage.unfilter(&sub, previous: previous, filter: 1, step: 3)
        #expect(sub == [1, 2, 3, 5, 7, 9])
        var up: [UInt8] = [1, 2, 3, 4, 5, 6]
        try PNGImage.unfilter(&up, previous: previous, filter: 2, step: 3)
        #expect(up == [11, 22, 33, 44, 55, 66])
        var average: [UInt8] = [1, 2, 3, 4, 5, 6]
        try PNGImage.unfilter(&average, previous: previous, filter: 3, step: 3)
        // Left plus above, halved: (0 + 10) / 2 = 5 → 6, …, then (6 + 40) / 2 = 23 → 27, …
        #expect(average == [6, 12, 18, 27, 36, 45])
        var paeth: [UInt8] = [1, 2, 3, 4, 5, 6]
        try PNGImage.unfilter(&paeth, previous: previous, filter: 4, step: 3)
        // First pixel: a = c = 0, so the predictor is b (above).
        #expect(Array(paeth.prefix(3)) == [11, 22, 33])
        var unknown: [UInt8] = [1]
        #expect(throws: PNGImage.Failure.self) { try PNGImage.unfilter(&unknown, previous: [0], filter: 5, step: 1) }
    }

    @Test func refusesMalformedFiles() throws {
        let good = PNGWriter.squaredCard(width: 8, height: 8).data()
        #expect(throws: PNGImage.Failure.self) { try PNGImage(data: Data("GIF89a".utf8), maximumPixels: 100) }
        var badCRC = [UInt8](good)
        badCRC[29] ^= 0xFF
        #expect(throws: PNGImage.Failure.self) { try PNGImage(data: Data(badCRC), maximumPixels: 100) }
        #expect(throws: PNGImage.Failure.self) { try PNGImage(data: good.prefix(good.count - 12), maximumPixels: 100) }
        #expect(throws: PNGImage.Failure.tooManyPixels(width: 8, height: 8, limit: 63)) {
            try PNGImage(data: good, maximumPixels: 63)
        }
        // IDAT that inflates to more than the image holds: refused, not decoded.
        let header = PNGWriter.be32(2) + PNGWriter.be32(2) + [8, 0, 0, 0, 0]
        let bomb =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGWriter.chunk("IHDR", header)
            + PNGWriter.chunk("IDAT", PNGWriter.zlibStored([UInt8](repeating: 0, count: 10_000))) + PNGWriter.chunk("IEND", [])
        #expect(throws: PNGImage.Failure.self) { try PNGImage(data: Data(bomb), maximumPixels: 100) }
    }

    @Test func cornerInspectionTellsSquaredFromRounded() throws {
        #expect(CornerInspection.inspect(try PNGImage(data: PNGWriter.squaredCard().data(), maximumPixels: 1 << 22)) == .squared)
        // A solid border all round is squared, not a matte.
        let bordered = PNGWriter(width: 400, height: 252) { x, y in
            x < 8 || y < 8 || x >= 392 || y >= 244 ? [255, 255, 255] : [20, 60, 120]
        }
        #expect(CornerInspection.inspect(try PNGImage(data: bordered.data(), maximumPixels: 1 << 22)) == .squared)
        let cut = PNGWriter(width: 400, height: 252, colorType: 6) { x, y in
            x == 399 && y == 0 ? [0, 0, 0, 0] : [20, 60, 120, 255]
        }
        #expect(
            CornerInspection.inspect(try PNGImage(data: cut.data(), maximumPixels: 1 << 22)) == .transparentCorners(["top-right"])
        )
        let matte = PNGWriter(width: 400, height: 252) { x, y in
            PNGWriter.outsideRoundedCorner(x, y, width: 400, height: 252, radius: 20) ? [250, 250, 250] : [20, 60, 120]
        }
        #expect(CornerInspection.inspect(try PNGImage(data: matte.data(), maximumPixels: 1 << 22)) == .matteCorners)
    }
}
