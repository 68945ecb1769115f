import Foundation
import Testing

@testable import ProvisioCore

@Suite struct CardArtCheckTests {
    /// A PNG signature and IHDR chunk for `width` × `height`, padded with zeros to `byteCount`.
    static func png(width: UInt32, height: UInt32, byteCount: Int = 64) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func append(_ value: UInt32) { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        append(13)
        bytes += Array("IHDR".utf8)
        append(width)
        append(height)
        bytes += [8, 6, 0, 0, 0]  // bit depth, colour type, compression, filter, interlace
        append(0)  // CRC (not checked)
        var data = Data(bytes)
        if byteCount > data.count { data.append(Data(count: byteCount - data.count)) }
        return data
    }

    func codes(_ data: Data) -> [ProvisioError.Code] { CardArtCheck.problems(in: data).map(\.code) }

    @Test func goodArtHasNoProblems() throws {
        #expect(codes(Self.png(width: 1536, height: 969)).isEmpty)
        #expect(codes(Self.png(width: 1536, height: 969, byteCount: CardArtCheck.maximumByteCount - 1)).isEmpty)
        try CardArtCheck.validate(Self.png(width: 1536, height: 969))
        let dimensions = try CardArtCheck.dimensions(of: Self.png(width: 1536, height: 969)).get()
        #expect(dimensions.width == 1536 && dimensions.height == 969)
    }

    @Test func wrongSizeButLandscape() {
        #expect(CardArtCheck.problems(in: Self.png(width: 1000, height: 631)) == [.wrongSize(width: 1000, height: 631)])
        #expect(codes(Self.png(width: 1536, height: 970)) == [.cardArtWrongSize])
    }

    @Test func portraitAndSquareAreWrongSizeAndNotLandscape() {
        #expect(codes(Self.png(width: 969, height: 1536)) == [.cardArtWrongSize, .cardArtNotLandscape])
        #expect(codes(Self.png(width: 1000, height: 1000)) == [.cardArtWrongSize, .cardArtNotLandscape])
    }

    @Test func fourMegabytesIsTooLarge() {
        #expect(codes(Self.png(width: 1536, height: 969, byteCount: 4 * 1024 * 1024)) == [.cardArtTooLarge])
    }

    @Test func everyProblemAtOnce() throws {
        let problems = CardArtCheck.problems(in: Self.png(width: 969, height: 1536, byteCount: 5 * 1024 * 1024))
        #expect(problems.map(\.code) == [.cardArtWrongSize, .cardArtNotLandscape, .cardArtTooLarge])
        #expect(Set(problems.map(\.message)).count == 3)
        #expect(problems[0].message.contains("1536 × 969") && problems[0].message.contains("969 × 1536"))
        #expect(problems[2].message.contains("5242880"))
        let notPNG = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(count: 4 * 1024 * 1024)
        #expect(codes(notPNG) == [.cardArtNotPNG, .cardArtTooLarge])
        let error = #expect(throws: ProvisioError.self) {
            try CardArtCheck.validate(Self.png(width: 969, height: 1536, byteCount: 5 * 1024 * 1024))
        }
        #expect(error?.code == .cardArtWrongSize)
        #expect(error?.message.contains("landscape") == true && error?.message.contains("4 MB") == true)
    }

    @Test func notAPNG() {
        #expect(codes(Data("GIF89a".utf8)) == [.cardArtNotPNG])
        #expect(codes(Data()) == [.cardArtNotPNG])
        #expect(codes(Self.png(width: 1536, height: 969).prefix(20)) == [.cardArtNotPNG])  // truncated IHDR
        var wrongChunk = Self.png(width: 1536, height: 969)
        wrongChunk[12] = UInt8(ascii: "X")
        #expect(codes(wrongChunk) == [.cardArtNotPNG])
        #expect(codes(Self.png(width: 0, height: 969)) == [.cardArtNotPNG])
        #expect(CardArtProblem.notPNG(detail: "x").message.contains("PNG"))
    }

    @Test func stableCodes() {
        #expect(
            [ProvisioError.Code.cardArtNotPNG, .cardArtWrongSize, .cardArtTooLarge, .cardArtNotLandscape].map(\.rawValue) == [
                "card_art_not_png", "card_art_wrong_size", "card_art_too_large", "card_art_not_landscape",
            ])
        #expect(CardArtProblem.tooLarge(byteCount: 1).error.code == .cardArtTooLarge)
    }
}
