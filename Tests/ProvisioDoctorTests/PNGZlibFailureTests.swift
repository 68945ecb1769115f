import Foundation
import Testing

@testable import ProvisioDoctor

/// Pixel data that the system's zlib refuses: cut short, inflating past what the header's
/// dimensions need (a "zip bomb"), or failing its Adler-32 checksum. Each is refused with its own
/// `Zlib.Failure`, its own `PNGImage.Failure.inflateFailed` reason and, as the example's card art,
/// the doctor's `doctor.card_art_unreadable` warning and nothing else.
@Suite struct PNGZlibFailureTests {
    /// The rows 1536 × 969 8-bit RGB art inflates to: a filter byte and 3 bytes a pixel each.
    static let cardArtBytes = 969 * (1 + 1536 * 3)

    /// The pixel data of `PNGWriter.squaredCard()`, as its IDAT chunk holds it.
    static let cardArtStream = PNGWriter.zlibFixed(PNGWriter.squaredCard().scanlines(), distances: [1536 * 3 + 1, 1])

    /// Card art with a correct header (1536 × 969, 8-bit RGB) and `idat` as its pixel data.
    static func cardArt(idat: [UInt8]) -> Data {
        let header = PNGWriter.be32(1536) + PNGWriter.be32(969) + [8, 2, 0, 0, 0]
        let png =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGWriter.chunk("IHDR", header) + PNGWriter.chunk("IDAT", idat)
            + PNGWriter.chunk("IEND", [])
        return Data(png)
    }

    /// A zlib stream of `1 + 258 × matches` zeros in one fixed-Huffman block: a literal zero,
    /// then the longest match (258 bytes at distance 1, 13 bits) over and over, and a valid
    /// Adler-32 (over zeros, its sum stays 1 and its second sum counts the bytes).
    static func bomb(matches: Int) -> [UInt8] {
        var writer = PNGWriter.BitWriter()
        writer.bits(1, 1)
        writer.bits(1, 2)
        writer.literalLength(0)
        for _ in 0..<matches {
            writer.literalLength(285)
            writer.huffman(0, length: 5)
        }
        writer.literalLength(256)
        let count = 1 + 258 * matches
        return [0x78, 0x01] + writer.finish() + PNGWriter.be32(UInt32(count % 65521) << 16 | 1)
    }

    /// The doctor, on the example with `png` as its card art, finds only that the art is unreadable, and why.
    static func expectUnreadable(_ png: Data, because reason: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        try copy.write(ExampleCopy.cardArt, png)
        let findings = try Doctor().examine(copy.root).findings
        #expect(findings.map(\.code) == [.cardArtUnreadable], "\(findings)", sourceLocation: sourceLocation)
        #expect(findings.first?.message.contains("(\(reason))") == true, "\(findings)", sourceLocation: sourceLocation)
    }

    @Test func theUndamagedStreamDecodes() throws {
        #expect(Self.cardArt(idat: Self.cardArtStream) == PNGWriter.squaredCard().data())
        #expect(try Zlib.inflate(Self.cardArtStream, maximumOutput: Self.cardArtBytes).count == Self.cardArtBytes)
        let image = try PNGImage(data: Self.cardArt(idat: Self.cardArtStream), maximumPixels: 1 << 22)
        #expect(image.pixel(x: 1535, y: 968) == (20, 75, 120, 255))  // green: 60 + 1535 % 40
    }

    @Test func aTruncatedStreamIsRefused() throws {
        let cut = Array(Self.cardArtStream.prefix(Self.cardArtStream.count / 2))
        #expect(throws: Zlib.Failure.truncated) { try Zlib.inflate(cut, maximumOutput: Self.cardArtBytes) }
        // Every pixel there, the checksum cut: truncated too.
        #expect(throws: Zlib.Failure.truncated) {
            try Zlib.inflate(Array(Self.cardArtStream.dropLast(2)), maximumOutput: Self.cardArtBytes)
        }
        #expect(throws: Zlib.Failure.truncated) { try Zlib.inflate([0x78], maximumOutput: 10) }
        #expect(throws: Zlib.Failure.truncated) { try Zlib.inflate([], maximumOutput: 10) }
        #expect(throws: PNGImage.Failure.inflateFailed("the pixel data is truncated")) {
            try PNGImage(data: Self.cardArt(idat: cut), maximumPixels: 1 << 22)
        }
        try Self.expectUnreadable(Self.cardArt(idat: cut), because: "the pixel data is truncated")
    }

    @Test func aZipBombIsRefusedPastTheImagesSize() throws {
        // The bomb is a valid stream: it inflates whole under a cap of exactly its size, and one
        // byte less is refused.
        let small = Self.bomb(matches: 100)
        #expect(try Zlib.inflate(small, maximumOutput: 25_801) == [UInt8](repeating: 0, count: 25_801))
        #expect(throws: Zlib.Failure.outputTooLarge(limit: 25_800)) { try Zlib.inflate(small, maximumOutput: 25_800) }
        // About 100 KB that inflate to 16.8 MB, where the header's dimensions need 4.5 MB.
        let bomb = Self.bomb(matches: 65_000)
        #expect(bomb.count < 110_000)
        #expect(throws: Zlib.Failure.outputTooLarge(limit: Self.cardArtBytes)) {
            try Zlib.inflate(bomb, maximumOutput: Self.cardArtBytes)
        }
        #expect(throws: PNGImage.Failure.inflateFailed("the pixel data is larger than the image")) {
            try PNGImage(data: Self.cardArt(idat: bomb), maximumPixels: 1 << 22)
        }
        try Self.expectUnreadable(Self.cardArt(idat: bomb), because: "the pixel data is larger than the image")
    }

    @Test func aFailedChecksumIsRefused() throws {
        // The chunk's CRC is written over the damaged stream, so only the Adler-32 fails.
        var damaged = Self.cardArtStream
        damaged[damaged.count - 1] ^= 0x01
        #expect(throws: Zlib.Failure.checksumMismatch) { try Zlib.inflate(damaged, maximumOutput: Self.cardArtBytes) }
        #expect(throws: PNGImage.Failure.inflateFailed("the pixel data fails its Adler-32 checksum")) {
            try PNGImage(data: Self.cardArt(idat: damaged), maximumPixels: 1 << 22)
        }
        try Self.expectUnreadable(Self.cardArt(idat: damaged), because: "the pixel data fails its Adler-32 checksum")
    }
}
