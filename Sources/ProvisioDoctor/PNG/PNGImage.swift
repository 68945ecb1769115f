import Foundation

/// A decoded PNG: its header and, when asked for, its pixels as 8-bit RGBA.
///
/// Everything PNG allows is decoded — bit depths 1 to 16, grey, RGB, palette, with alpha or
/// `tRNS` transparency, Adam7 interlacing — with every chunk's CRC checked. The limits keep a
/// hostile file from costing more than a card-art-sized image would.
public struct PNGImage: Sendable {
    public enum Failure: Error, Sendable, Hashable {
        /// Not a PNG, or a malformed one (with what was wrong).
        case malformed(String)
        /// More pixels than the decoder is allowed to hold.
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// The pixel data does not inflate to the image: truncated, corrupt, failing its checksum,
        /// or larger or shorter than the header's dimensions need (with which).
        case inflateFailed(String)
    }

    public let width: Int
    public let height: Int
    public let bitDepth: Int
    public let colorType: Int
    public let interlaced: Bool

    /// Unfiltered rows, `bytesPerRow` each, in the image's own format.
    private let rows: [UInt8]
    private let palette: [UInt8]
    private let transparency: [UInt8]

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Decodes `data`; refuses images over `maximumPixels` before inflating anything.
    public init(data: Data, maximumPixels: Int) throws(Failure) {
        let bytes = [UInt8](data)
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.signature else {
            throw .malformed("the file does not start with the PNG signature")
        }
        var offset = 8
        var header: [UInt8]?
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        var compressed: [UInt8] = []
        var ended = false
        while offset < bytes.count, !ended {
            guard offset + 12 <= bytes.count else { throw .malformed("a chunk is truncated") }
            let length = Int(Self.uint32(bytes, offset))
            let typeRange = offset + 4..<offset + 8
            guard length <= bytes.count - offset - 12 else { throw .malformed("a chunk runs past the end of the file") }
            let dataRange = offset + 8..<offset + 8 + length
            let storedCRC = Self.uint32(bytes, dataRange.upperBound)
            guard Zlib.crc32(bytes[typeRange.lowerBound..<dataRange.upperBound]) == storedCRC else {
                throw .malformed("the CRC of chunk \(String(decoding: bytes[typeRange], as: UTF8.self)) does not match")
            }
            let chunk = Array(bytes[dataRange])
            switch String(decoding: bytes[typeRange], as: UTF8.self) {
            case "IHDR":
                guard header == nil, offset == 8, length == 13 else { throw .malformed("IHDR is not the first chunk") }
                header = chunk
            case "PLTE": palette = chunk
            case "tRNS": transparency = chunk
            case "IDAT": compressed += chunk
            case "IEND": ended = true
            default: break
            }
            offset = dataRange.upperBound + 4
        }
        guard let header else { throw .malformed("the IHDR header is missing") }
        guard ended else { throw .malformed("the IEND chunk is missing") }
        width = Int(Self.uint32(header, 0))
        height = Int(Self.uint32(header, 4))
        bitDepth = Int(header[8])
        colorType = Int(header[9])
        guard header[10] == 0, header[11] == 0, header[12] <= 1 else {
            throw .malformed("IHDR names an unknown compression, filter or interlace method")
        }
        interlaced = header[12] == 1
        let allowedDepths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = allowedDepths[colorType], depths.contains(bitDepth) else {
            throw .malformed("IHDR gives colour type \(colorType) with bit depth \(bitDepth)")
        }
        guard width > 0, height > 0 else { throw .malformed("IHDR gives a zero width or height") }
        guard width <= maximumPixels / height else {
            throw .tooManyPixels(width: width, height: height, limit: maximumPixels)
        }
        guard colorType != 3 || !palette.isEmpty else { throw .malformed("a palette image has no PLTE chunk") }
        self.palette = palette
        self.transparency = transparency

        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
        let bitsPerPixel = channels * bitDepth
        let passes = interlaced ? Self.adam7 : [Pass(x: 0, y: 0, dx: 1, dy: 1)]
        var expected = 0
        for pass in passes {
            let (passWidth, passHeight) = pass.size(width: width, height: height)
            guard passWidth > 0, passHeight > 0 else { continue }
            expected += passHeight * (1 + (passWidth * bitsPerPixel + 7) / 8)
        }
        let inflated: [UInt8]
        do {
            inflated = try Zlib.inflate(compressed, maximumOutput: expected)
        } catch {
            throw .inflateFailed(Self.reason(error))
        }
        guard inflated.count == expected else { throw .inflateFailed("the pixel data is shorter than the image") }

        let bytesPerRow = (width * bitsPerPixel + 7) / 8
        let filterStep = max(1, bitsPerPixel / 8)
        var rows = [UInt8](repeating: 0, count: bytesPerRow * height)
        var cursor = 0
        for pass in passes {
            let (passWidth, passHeight) = pass.size(width: width, height: height)
            guard passWidth > 0, passHeight > 0 else { continue }
            let passRowBytes = (passWidth * bitsPerPixel + 7) / 8
            var previous = [UInt8](repeating: 0, count: passRowBytes)
            var current = [UInt8](repeating: 0, count: passRowBytes)
            for passRow in 0..<passHeight {
                let filter = inflated[cursor]
                for index in 0..<passRowBytes { current[index] = inflated[cursor + 1 + index] }
                cursor += 1 + passRowBytes
                try Self.unfilter(&current, previous: previous, filter: filter, step: filterStep)
                let y = pass.y + passRow * pass.dy
                if !interlaced {
                    rows.replaceSubrange(y * bytesPerRow..<(y + 1) * bytesPerRow, with: current)
                } else {
                    for passColumn in 0..<passWidth {
                        let x = pass.x + passColumn * pass.dx
                        Self.copyPixel(
                            from: current, column: passColumn, to: &rows, offset: y * bytesPerRow, column: x,
                            bitsPerPixel: bitsPerPixel)
                    }
                }
                swap(&previous, &current)
            }
        }
        self.rows = rows
    }

    /// The pixel at (x, y) as 8-bit red, green, blue and alpha.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
        let bytesPerRow = (width * channels * bitDepth + 7) / 8
        let row = y * bytesPerRow
        func sample(_ index: Int) -> Int {
            switch bitDepth {
            case 16: return Int(rows[row + index * 2]) << 8 | Int(rows[row + index * 2 + 1])
            case 8: return Int(rows[row + index])
            default:
                let bitOffset = index * bitDepth
                let byte = Int(rows[row + bitOffset / 8])
                return byte >> (8 - bitDepth - bitOffset % 8) & (1 << bitDepth - 1)
            }
        }
        // Scales a sample of this bit depth to 0...255.
        func scaled(_ value: Int) -> UInt8 { UInt8(value * 255 / (1 << bitDepth - 1)) }
        func transparent(_ raw: [Int]) -> Bool {
            guard transparency.count >= raw.count * 2 else { return false }
            return raw.enumerated().allSatisfy {
                Int(transparency[$0.offset * 2]) << 8 | Int(transparency[$0.offset * 2 + 1]) == $0.element
            }
        }
        let base = x * channels
        switch colorType {
        case 0:
            let grey = sample(base)
            return (scaled(grey), scaled(grey), scaled(grey), transparent([grey]) ? 0 : 255)
        case 2:
            let raw = [sample(base), sample(base + 1), sample(base + 2)]
            return (scaled(raw[0]), scaled(raw[1]), scaled(raw[2]), transparent(raw) ? 0 : 255)
        case 3:
            let index = sample(base)
            guard index * 3 + 2 < palette.count else { return (0, 0, 0, 0) }
            let alpha = index < transparency.count ? transparency[index] : 255
            return (palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2], alpha)
        case 4:
            let grey = scaled(sample(base))
            return (grey, grey, grey, scaled(sample(base + 1)))
        default:
            return (scaled(sample(base)), scaled(sample(base + 1)), scaled(sample(base + 2)), scaled(sample(base + 3)))
        }
    }

    // MARK: - Decoding helpers

    struct Pass {
        let x: Int
        let y: Int
        let dx: Int
        let dy: Int

        func size(width: Int, height: Int) -> (Int, Int) {
            ((width - x + dx - 1) / dx, (height - y + dy - 1) / dy)
        }
    }

    static let adam7 = [
        Pass(x: 0, y: 0, dx: 8, dy: 8), Pass(x: 4, y: 0, dx: 8, dy: 8), Pass(x: 0, y: 4, dx: 4, dy: 8),
        Pass(x: 2, y: 0, dx: 4, dy: 4), Pass(x: 0, y: 2, dx: 2, dy: 4), Pass(x: 1, y: 0, dx: 2, dy: 2),
        Pass(x: 0, y: 1, dx: 1, dy: 2),
    ]

    static func unfilter(_ row: inout [UInt8], previous: [UInt8], filter: UInt8, step: Int) throws(Failure) {
        switch filter {
        case 0:
            return
        case 1:
            for index in step..<max(step, row.count) { row[index] &+= row[index - step] }
        case 2:
            for index in 0..<row.count { row[index] &+= previous[index] }
        case 3:
            for index in 0..<row.count {
                let left = index >= step ? Int(row[index - step]) : 0
                row[index] &+= UInt8((left + Int(previous[index])) / 2)
            }
        case 4:
            for index in 0..<row.count {
                let a = index >= step ? Int(row[index - step]) : 0
                let b = Int(previous[index])
                let c = index >= step ? Int(previous[index - step]) : 0
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                row[index] &+= UInt8(pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
            }
        default:
            throw .malformed("a row uses the unknown filter type \(filter)")
        }
    }

    private static func copyPixel(
        from source: [UInt8], column: Int, to rows: inout [UInt8], offset: Int, column target: Int, bitsPerPixel: Int
    ) {
        if bitsPerPixel >= 8 {
            let size = bitsPerPixel / 8
            for index in 0..<size { rows[offset + target * size + index] = source[column * size + index] }
            return
        }
        let sourceBit = column * bitsPerPixel
        let value = source[sourceBit / 8] >> (8 - bitsPerPixel - sourceBit % 8) & UInt8(1 << bitsPerPixel - 1)
        let targetBit = target * bitsPerPixel
        let shift = 8 - bitsPerPixel - targetBit % 8
        rows[offset + targetBit / 8] |= value << shift
    }

    /// What `inflateFailed` says for each way the IDAT stream fails.
    static func reason(_ failure: Zlib.Failure) -> String {
        switch failure {
        case .truncated: "the pixel data is truncated"
        case .checksumMismatch: "the pixel data fails its Adler-32 checksum"
        case .corrupt(let reason): "the pixel data is not a valid zlib stream (\(reason))"
        case .outputTooLarge: "the pixel data is larger than the image"
        }
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
