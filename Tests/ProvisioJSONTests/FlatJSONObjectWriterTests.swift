import Foundation
import ProvisioCore
import Testing

@testable import ProvisioJSON

@Suite struct FlatJSONObjectWriterTests {
    struct Pair: Codable {
        var name: String
        var nameSuffix: String
    }

    static func encoderBytes(_ pair: Pair) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(pair))
    }

    static func writerBytes(_ pair: Pair) -> [UInt8] {
        var writer = FlatJSONObjectWriter()
        writer.member("name", pair.name)
        writer.member("nameSuffix", pair.nameSuffix)
        return writer.finish()
    }

    @Test func matchesJSONEncoderForEveryASCIICharacter() throws {
        for code in UInt8(0)..<0x80 {
            let text = "a" + String(UnicodeScalar(code)) + "z"
            let pair = Pair(name: text, nameSuffix: String(UnicodeScalar(code)))
            #expect(Self.writerBytes(pair) == (try Self.encoderBytes(pair)), "character \(code)")
        }
    }

    @Test(arguments: ["", "Jane Appleseed", "Zoë Ørsted-Łukasz", "李小龙", "🙂 emoji", "a/b\\c\"d", "\u{2028}\u{2029}", "x\u{7F}"])
    func matchesJSONEncoderForText(_ text: String) throws {
        let pair = Pair(name: text, nameSuffix: String(text.reversed()))
        #expect(Self.writerBytes(pair) == (try Self.encoderBytes(pair)))
    }

    @Test func anEmptyObjectIsTwoBraces() {
        #expect(FlatJSONObjectWriter().finish() == Array("{}".utf8))
    }
}
