import Foundation
import Testing

@testable import ProvisioCore

@Suite struct BinaryTextTests {
    @Test func decodesHexInEitherCase() {
        #expect(BinaryText.decodeHex("00ff10Ab") == Data([0x00, 0xFF, 0x10, 0xAB]))
        #expect(BinaryText.decodeHex("abc") == nil)
        #expect(BinaryText.decodeHex("zz") == nil)
        #expect(BinaryText.decodeHex("") == nil)
    }

    @Test func decodesStandardAndURLSafeBase64WithOrWithoutPadding() {
        let bytes = Data([0xFB, 0xFF, 0xBF, 0x01])
        #expect(BinaryText.decodeBase64("+/+/AQ==") == bytes)
        #expect(BinaryText.decodeBase64("-_-_AQ") == bytes)
        #expect(BinaryText.decodeBase64("!!!") == nil)
        #expect(BinaryText.decodeBase64("A") == nil)
    }

    @Test func prefersHexWhenUnambiguous() {
        #expect(BinaryText.decodeHexOrBase64("3f2a9107") == Data([0x3F, 0x2A, 0x91, 0x07]))
        #expect(BinaryText.decodeHexOrBase64("PyqRBw==") == Data([0x3F, 0x2A, 0x91, 0x07]))
        #expect(BinaryText.decodeHexOrBase64(" 3f2a9107\n") == Data([0x3F, 0x2A, 0x91, 0x07]))
        #expect(BinaryText.decodeHexOrBase64("not binary!") == nil)
    }

    @Test func encodesLowercaseHex() {
        #expect(BinaryText.lowercaseHex([0x00, 0xAB, 0xFF]) == "00abff")
    }
}

@Suite struct Base64URLTests {
    @Test func encodesUnpaddedURLSafe() {
        #expect(BinaryText.base64URL([0xFB, 0xFF, 0xBF, 0x01]) == "-_-_AQ")
        #expect(BinaryText.base64URL(Data()) == "")
        #expect(BinaryText.decodeBase64(BinaryText.base64URL([0x00, 0x10, 0x83])) == Data([0x00, 0x10, 0x83]))
    }
}
