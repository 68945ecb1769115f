import Foundation
import ProvisioCore
import Testing

@testable import ProvisioJSON

/// Parses UTF-8 text with the given limits.
private func parse(_ text: String, limits: StrictJSONParser.Limits = .default) throws(StrictJSONError) -> JSONValue {
    try StrictJSONParser.parse(Array(text.utf8), limits: limits)
}

/// The canonical form of `text` as a string (it is always UTF-8).
private func canonical(_ text: String) throws -> String {
    String(decoding: try parse(text).canonicalData(), as: UTF8.self)
}

/// The error parsing `bytes` throws, nil when it parses.
private func refusal(_ bytes: [UInt8], limits: StrictJSONParser.Limits = .default) -> StrictJSONError? {
    do {
        _ = try StrictJSONParser.parse(bytes, limits: limits)
        return nil
    } catch {
        return error
    }
}

private func refusal(_ text: String, limits: StrictJSONParser.Limits = .default) -> StrictJSONError? {
    refusal(Array(text.utf8), limits: limits)
}

private func nested(_ open: String, _ inner: String, _ close: String, depth: Int) -> String {
    String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
}

@Suite struct StrictJSONAcceptanceTests {
    @Test(arguments: [
        (#" { "b" : 1 , "a" : [ true , false , null ] } "#, #"{"a":[true,false,null],"b":1}"#),
        ("\t\r\n42\n", "42"),
        (#""x""#, #""x""#),
        ("null", "null"),
        // Numbers keep their literal text: 1, 1.0 and 1E+0 stay three different values.
        (
            "[-0, 0, 1, 1.0, 1e0, 1E+0, -0.5e-10, 0.10, 12345678901234567890123]",
            "[-0,0,1,1.0,1e0,1E+0,-0.5e-10,0.10,12345678901234567890123]"
        ),
        // Minimal escaping: short forms, lowercase \u00xx for other controls, raw DEL, `/` and é.
        (#""\"\\\/\b\f\n\r\t\u0000\u001F\u007f\u00e9\u00E9""#, #""\"\\/\b\f\n\r\t\u0000\u001f"# + "\u{7F}éé\""),
        (#""\ud83d\ude00 \uD834\uDD1E""#, "\"😀 𝄞\""),
        ("\"é€😀\"", "\"é€😀\""),
        (#"{"\u0061\u0062":1}"#, #"{"ab":1}"#),
        // Keys sorted by UTF-8 bytes: "" < "B" < "a" < "aa" < "b" < "z" < "é" (C3 A9).
        (#"{"b":1,"a":2,"B":3,"":4,"aa":5,"z":6,"\u00e9":7}"#, #"{"":4,"B":3,"a":2,"aa":5,"b":1,"z":6,"é":7}"#),
        // Byte order, not UTF-16 order: U+FFFD (EF BF BD) sorts before U+1F600 (F0 9F 98 80).
        (#"{"\ud83d\ude00":2,"\uFFFD":1}"#, "{\"\u{FFFD}\":1,\"😀\":2}"),
        (#"[{"b":[{"d":1,"c":2}],"a":{}},[],{}]"#, #"[{"a":{},"b":[{"c":2,"d":1}]},[],{}]"#),
        ("[\"\u{7F}\"]", "[\"\u{7F}\"]"),
    ])
    func acceptsAndWritesTheCanonicalForm(input: String, expected: String) throws {
        let value = try parse(input)
        #expect(String(decoding: value.canonicalData(), as: UTF8.self) == expected)
        #expect(value.canonicalData() == Array(expected.utf8))
        // The canonical form is itself accepted and is a fixed point.
        #expect(try parse(expected) == value)
        #expect(try parse(expected).canonicalData() == Array(expected.utf8))
    }

    @Test func sortsKeysByBytesNotByStringComparison() throws {
        // "é" precomposed (C3 A9), "e" + U+0301 + "x" (65 CC 81 78) and "f" (66): by bytes the
        // decomposed key comes first, while String's order (normalized) puts "f" first.
        let value = try parse(#"{"\u00e9":1,"e\u0301x":2,"f":3}"#)
        #expect(try canonical(#"{"\u00e9":1,"e\u0301x":2,"f":3}"#) == "{\"e\u{301}x\":2,\"f\":3,\"é\":1}")
        #expect(value.objectValue?.keys.sorted() == ["f", "é", "e\u{301}x"])
        #expect(value.objectValue?.membersInCanonicalOrder.map(\.key) == ["e\u{301}x", "f", "é"])
    }

    @Test func acceptsEveryInputCollection() throws {
        let text = #"{"a":[1,"b"]}"#
        let expected: JSONValue = ["a": [1, "b"]]
        #expect(try StrictJSONParser.parse(Data(text.utf8)) == expected)
        #expect(try StrictJSONParser.parse(text.utf8) == expected)
        #expect(try StrictJSONParser.parse(Array(("xx" + text).utf8)[2...]) == expected)
        #expect(try StrictJSONParser.parse(Array(text.utf8).lazy.map { $0 }) == expected)
    }

    @Test func keepsTheOrderMembersWereWrittenIn() throws {
        let value = try parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(value.objectMembers?.map(\.key) == ["z", "a", "m"])
        #expect(value.objectValue?.keys == ["z", "a", "m"])
    }

    @Test func acceptsTheSameKeyInDifferentObjectsAndKeysThatOnlyLookAlike() throws {
        #expect(try canonical(#"{"a":{"a":1}}"#) == #"{"a":{"a":1}}"#)
        #expect(try canonical(#"[{"a":1},{"a":2}]"#) == #"[{"a":1},{"a":2}]"#)
        #expect(try canonical(#"{"a":1,"A":2}"#) == #"{"A":2,"a":1}"#)
        #expect(try canonical(#"{"ab":1,"a":2}"#) == #"{"a":2,"ab":1}"#)
        #expect(try canonical(#"{"a\u0000":1,"a":2}"#) == #"{"a":2,"a\u0000":1}"#)
    }
}

@Suite struct StrictJSONCanonicalFormTests {
    @Test func equalForReorderedWhitespaceAndEscapeVariants() throws {
        let expected = #"{"a":1,"b":[true,{"c":"x","d":null}]}"#
        let variants = [
            #"{"a":1,"b":[true,{"d":null,"c":"x"}]}"#,
            #" { "b" : [ true , { "c" : "x" , "d" : null } ] , "a" : 1 } "#,
            "{\n\t\"b\":[true,{\"c\":\"\\u0078\",\"d\":null}],\r\n\"a\":1}",
            #"{"\u0062":[true,{"d":null,"\u0063":"\u0078"}],"a":1}"#,
        ]
        var values: Set<JSONValue> = []
        for variant in variants {
            let value = try parse(variant)
            #expect(String(decoding: value.canonicalData(), as: UTF8.self) == expected, "\(variant)")
            values.insert(value)
        }
        #expect(values.count == 1)
    }

    @Test(arguments: [
        ("1", "1.0"), ("1", "1e0"), ("0", "-0"), ("1E2", "1e2"), ("[1,2]", "[2,1]"), (#"{"a":null}"#, "{}"),
        (#""a""#, #""A""#), (#""\u00e9""#, #""e\u0301""#), (#"{"\u00e9":1}"#, #"{"e\u0301":1}"#),
        (#"{"a":1}"#, #"{"a":"1"}"#), ("[]", "{}"), ("null", #""null""#), ("[[]]", "[]"), (#"{"a":{}}"#, #"{"a":[]}"#),
        (#""a\u0000""#, #""a""#), ("true", #""true""#), (#"["a","b"]"#, #"["a,b"]"#), (#"{"a":"b"}"#, #"{"a:b":""}"#),
    ])
    func differentValuesGiveDifferentBytes(left: String, right: String) throws {
        // 1 and 1.0 are different literal texts, so different values: the canonical form never
        // rewrites numbers (see JSONValue).
        let a = try parse(left)
        let b = try parse(right)
        #expect(a != b)
        #expect(a.canonicalData() != b.canonicalData())
    }

    @Test func equalityIsExactScalarsEvenWhereStringSaysEqual() {
        // Swift's String == applies canonical equivalence; JSON values do not.
        #expect("é" == "e\u{301}")
        #expect(JSONValue.string("é") != JSONValue.string("e\u{301}"))
        #expect(Set<JSONValue>([.string("é"), .string("e\u{301}")]).count == 2)
        let object: JSONObject = ["é": 1]
        #expect(object["é"] == 1)
        #expect(object["e\u{301}"] == nil)
    }

    @Test func literalsBuildTheSameValuesAsParsing() throws {
        let built: JSONValue = ["b": .null, "a": [1, "x", true, ["k": false]]]
        #expect(try parse(#"{"a":[1,"x",true,{"k":false}],"b":null}"#) == built)
        #expect(String(decoding: built.canonicalData(), as: UTF8.self) == #"{"a":[1,"x",true,{"k":false}],"b":null}"#)
        #expect(JSONValue(integer: -42 as Int64) == .number("-42"))
    }
}

@Suite struct StrictJSONRefusalTests {
    @Test(
        arguments: [
            // Structure
            ("", .unexpectedEnd, 0, []),
            ("   ", .unexpectedEnd, 3, []),
            (#"{"a":1,}"#, .syntax, 7, []),
            ("[1,]", .syntax, 3, [.index(1)]),
            ("[1 2]", .syntax, 3, []),
            (#"{"a" 1}"#, .syntax, 5, [.key("a")]),
            (#"{"a":1 "b":2}"#, .syntax, 7, []),
            ("{1:2}", .syntax, 1, []),
            ("{'a':1}", .syntax, 1, []),
            ("['a']", .syntax, 1, [.index(0)]),
            ("// c\n1", .syntax, 0, []),
            ("/*x*/1", .syntax, 0, []),
            ("True", .syntax, 0, []),
            ("trUe", .syntax, 2, []),
            ("[nulll]", .syntax, 5, []),
            ("tru", .unexpectedEnd, 3, []),
            ("nul", .unexpectedEnd, 3, []),
            (#""abc"#, .unexpectedEnd, 4, []),
            (#"{"a""#, .unexpectedEnd, 4, [.key("a")]),
            (#"{"a":"#, .unexpectedEnd, 5, [.key("a")]),
            ("[", .unexpectedEnd, 1, [.index(0)]),
            ("{", .unexpectedEnd, 1, []),
            ("[1", .unexpectedEnd, 2, []),
            (#"["a\"#, .unexpectedEnd, 4, [.index(0)]),
            // Numbers
            ("NaN", .syntax, 0, []),
            ("Infinity", .syntax, 0, []),
            ("[NaN]", .syntax, 1, [.index(0)]),
            ("-Infinity", .invalidNumber, 1, []),
            ("01", .invalidNumber, 1, []),
            ("00", .invalidNumber, 1, []),
            ("-01", .invalidNumber, 2, []),
            ("[01]", .invalidNumber, 2, [.index(0)]),
            ("1.", .invalidNumber, 2, []),
            ("1.e5", .invalidNumber, 2, []),
            ("1e", .invalidNumber, 2, []),
            ("1e+", .invalidNumber, 3, []),
            ("-", .invalidNumber, 1, []),
            (".5", .syntax, 0, []),
            ("+1", .syntax, 0, []),
            ("0x10", .trailingData, 1, []),
            ("1.5.3", .trailingData, 3, []),
            // Whitespace is only space, tab, CR and LF.
            ("\u{0C}1", .syntax, 0, []),
            ("\u{0B}1", .syntax, 0, []),
            ("[1,\u{A0}2]", .syntax, 3, [.index(1)]),
            // Trailing data
            ("{} {}", .trailingData, 3, []),
            ("1 2", .trailingData, 2, []),
            ("{}x", .trailingData, 2, []),
            (#""a""b""#, .trailingData, 3, []),
            ("{}\u{0}", .trailingData, 2, []),
            ("1 // c", .trailingData, 2, []),
            // Control characters, escapes, surrogates
            ("\"a\tb\"", .controlCharacter, 2, []),
            ("\"\u{1F}\"", .controlCharacter, 1, []),
            ("\"\u{0}\"", .controlCharacter, 1, []),
            ("{\"a\nb\":1}", .controlCharacter, 3, []),
            (#""\x""#, .invalidEscape, 1, []),
            (#""\'""#, .invalidEscape, 1, []),
            (#""ab\U0041""#, .invalidEscape, 3, []),
            (#""\u12""#, .invalidEscape, 1, []),
            (#""\u12G4""#, .invalidEscape, 1, []),
            (#""\u00e"#, .unexpectedEnd, 6, []),
            (#""\ud800""#, .loneSurrogate, 1, []),
            (#""\udc00""#, .loneSurrogate, 1, []),
            (#""\ud800\u0041""#, .loneSurrogate, 1, []),
            (#""\ud800x""#, .loneSurrogate, 1, []),
            (#""\ud800\ud800""#, .loneSurrogate, 1, []),
            (#""ab\udfff""#, .loneSurrogate, 3, []),
            (#""\ud800"#, .loneSurrogate, 1, []),
            (#""\ud800\u00""#, .invalidEscape, 7, []),
            (#"{"\udc00":1}"#, .loneSurrogate, 2, []),
            (#"[1,"\uDBFF\uDBFF"]"#, .loneSurrogate, 4, [.index(1)]),
            // Duplicate keys, at any depth, after unescaping, and canonically equivalent
            (#"{"a":1,"a":2}"#, .duplicateKey, 7, [.key("a")]),
            (#"{"a":1,"a":1}"#, .duplicateKey, 7, [.key("a")]),
            (#"{"a":1,"\u0061":2}"#, .duplicateKey, 7, [.key("a")]),
            (#"{"":1,"":2}"#, .duplicateKey, 6, [.key("")]),
            (#"{"a":{"b":1,"b":2}}"#, .duplicateKey, 12, [.key("a"), .key("b")]),
            (#"{"x":[{"ok":1},{"b":1,"c":2,"b":3}]}"#, .duplicateKey, 28, [.key("x"), .index(1), .key("b")]),
            (#"[[{"a":[],"a":[]}]]"#, .duplicateKey, 10, [.index(0), .index(0), .key("a")]),
            (#"{"\u00e9":1,"e\u0301":2}"#, .duplicateKey, 12, [.key("e\u{301}")]),
            ("{\"é\":1,\"\\u00e9\":2}", .duplicateKey, 8, [.key("é")]),
            (#"{"pan":"1","x":{},"p\u0061n":"2"}"#, .duplicateKey, 18, [.key("pan")]),
        ] as [(String, StrictJSONError.Kind, Int, [StrictJSONError.PathComponent])])
    func refuses(input: String, kind: StrictJSONError.Kind, offset: Int, path: [StrictJSONError.PathComponent]) {
        let error = refusal(input)
        #expect(error == StrictJSONError(kind: kind, offset: offset, path: path), "\(input.debugDescription)")
    }

    @Test(
        arguments: [
            // Overlong forms
            ([0x22, 0xC0, 0xAF, 0x22], 1),
            ([0x22, 0xC1, 0xBF, 0x22], 1),
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),
            ([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 1),
            // Surrogates encoded in UTF-8
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),
            ([0x22, 0xED, 0xBF, 0xBF, 0x22], 1),
            // Above U+10FFFF
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),
            ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),
            // Bytes that never appear, stray continuations, truncated sequences
            ([0x22, 0xFF, 0x22], 1),
            ([0x22, 0xFE, 0x22], 1),
            ([0x22, 0x80, 0x22], 1),
            ([0x22, 0x61, 0xE2, 0x82, 0x22], 2),
            ([0x22, 0xE2, 0x82], 1),
            ([0x22, 0xF0, 0x9F, 0x98], 1),
            (Array(#"["ok",""#.utf8) + [0xFF] + Array(#""]"#.utf8), 7),
            (Array(#"{""#.utf8) + [0xED, 0xA0, 0x80] + Array(#"":1}"#.utf8), 2),
        ] as [([UInt8], Int)])
    func refusesInvalidUTF8(bytes: [UInt8], offset: Int) {
        #expect(refusal(bytes)?.kind == .invalidUTF8)
        #expect(refusal(bytes)?.offset == offset)
    }

    @Test func pathPointsIntoArraysForUTF8Errors() {
        #expect(refusal(Array(#"["ok",""#.utf8) + [0xFF] + Array(#""]"#.utf8))?.path == [.index(1)])
        #expect(refusal(Array(#"{"k":[""#.utf8) + [0xC0, 0x80] + Array(#""]}"#.utf8))?.path == [.key("k"), .index(0)])
    }

    @Test func acceptsWellFormedUTF8AtTheEdges() throws {
        // U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF.
        let bytes: [UInt8] =
            [0x22, 0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80, 0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80, 0xEF, 0xBF, 0xBF]
            + [0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]
        let value = try StrictJSONParser.parse(bytes)
        #expect(
            value.stringValue?.unicodeScalars.map(\.value)
                == [0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF])
        #expect(value.canonicalData() == bytes)
        // The same scalars as escapes decode to the same value.
        #expect(try parse(#""\u0080\u07ff\u0800\ud7ff\ue000\uffff\ud800\udc00\udbff\udfff""#) == value)
    }

    @Test func refusesAByteOrderMark() {
        #expect(refusal([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == StrictJSONError(kind: .byteOrderMark, offset: 0))
        #expect(refusal([0xEF, 0xBB, 0xBF]) == StrictJSONError(kind: .byteOrderMark, offset: 0))
        // After whitespace it is simply a byte that cannot start a value.
        #expect(refusal([0x20, 0xEF, 0xBB, 0xBF, 0x31]) == StrictJSONError(kind: .syntax, offset: 1))
        // Inside a string U+FEFF is an ordinary character.
        #expect(refusal([0x22, 0xEF, 0xBB, 0xBF, 0x22]) == nil)
    }

    @Test func refusesNonASCIIOutsideStrings() {
        #expect(refusal([0xC3, 0xA9]) == StrictJSONError(kind: .syntax, offset: 0))
        #expect(refusal([0x5B, 0xFF, 0x5D]) == StrictJSONError(kind: .syntax, offset: 1, path: [.index(0)]))
    }
}

@Suite struct StrictJSONLimitTests {
    @Test func depthLimitIsExact() throws {
        #expect(refusal(nested("[", "", "]", depth: 32)) == nil)
        #expect(
            refusal(nested("[", "", "]", depth: 33))
                == StrictJSONError(kind: .tooDeep, offset: 32, path: Array(repeating: .index(0), count: 32)))
        #expect(refusal(nested(#"{"a":"#, "1", "}", depth: 32)) == nil)
        #expect(
            refusal(nested(#"{"a":"#, "1", "}", depth: 33))
                == StrictJSONError(kind: .tooDeep, offset: 160, path: Array(repeating: .key("a"), count: 32)))
        // The depth counts containers, not members: wide and deep siblings are fine.
        #expect(refusal("[" + nested("[", "", "]", depth: 31) + "," + nested("[", "", "]", depth: 31) + "]") == nil)
    }

    @Test func customDepthLimits() {
        let one = StrictJSONParser.Limits(maxDepth: 1)
        #expect(refusal("[1]", limits: one) == nil)
        #expect(refusal("[[1]]", limits: one) == StrictJSONError(kind: .tooDeep, offset: 1, path: [.index(0)]))
        let zero = StrictJSONParser.Limits(maxDepth: 0)
        #expect(refusal(#""scalar""#, limits: zero) == nil)
        #expect(refusal("[]", limits: zero) == StrictJSONError(kind: .tooDeep, offset: 0))
    }

    @Test func depthNeverExceedsTheCeiling() {
        let lavish = StrictJSONParser.Limits(maxDepth: 1_000_000)
        #expect(refusal(nested("[", "", "]", depth: StrictJSONParser.Limits.depthCeiling), limits: lavish) == nil)
        #expect(
            refusal(nested("[", "", "]", depth: StrictJSONParser.Limits.depthCeiling + 1), limits: lavish)?.kind == .tooDeep)
    }

    @Test func hugeNestingIsRefusedWithoutRecursing() {
        let opens = [UInt8](repeating: UInt8(ascii: "["), count: 200_000)
        #expect(refusal(opens)?.kind == .tooDeep)
        #expect(refusal(opens)?.offset == 32)
        let objects = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
        #expect(refusal(objects)?.kind == .tooDeep)
    }

    @Test func sizeLimitIsExact() {
        let limit = 1 << 20
        let exact = Array("[1]".utf8) + [UInt8](repeating: 0x20, count: limit - 3)
        #expect(exact.count == limit)
        #expect(refusal(exact) == nil)
        #expect(refusal(exact + [0x20]) == StrictJSONError(kind: .tooLarge, offset: limit))
        let small = StrictJSONParser.Limits(maxBytes: 4)
        #expect(refusal("[12]", limits: small) == nil)
        #expect(refusal("[123]", limits: small) == StrictJSONError(kind: .tooLarge, offset: 4))
    }

    @Test func stringLimitIsExactAndCountsUnescapedUTF8Bytes() {
        let limit = 1 << 16
        #expect(refusal("\"" + String(repeating: "a", count: limit) + "\"") == nil)
        #expect(
            refusal("\"" + String(repeating: "a", count: limit + 1) + "\"")
                == StrictJSONError(kind: .stringTooLong, offset: 0))
        // Keys too.
        #expect(
            refusal("{\"" + String(repeating: "k", count: limit + 1) + "\":1}")
                == StrictJSONError(kind: .stringTooLong, offset: 1))
        // "é" is two bytes.
        #expect(refusal("\"" + String(repeating: "é", count: limit / 2) + "\"") == nil)
        #expect(refusal("\"" + String(repeating: "é", count: limit / 2) + "a\"")?.kind == .stringTooLong)
        // An escape counts what it decodes to: 65,536 × \u0041 is 393,216 bytes of input, 64 KiB decoded.
        #expect(refusal("\"" + String(repeating: #"\u0041"#, count: limit) + "\"") == nil)

        let three = StrictJSONParser.Limits(maxStringBytes: 3)
        #expect(refusal(#"["abc"]"#, limits: three) == nil)
        #expect(refusal(#"["abcd"]"#, limits: three) == StrictJSONError(kind: .stringTooLong, offset: 1, path: [.index(0)]))
        #expect(refusal(#""\u0041\u0042\u0043""#, limits: three) == nil)
        #expect(refusal(#""\ud83d\ude00""#, limits: three)?.kind == .stringTooLong)
        #expect(refusal(#""\ud83d\ude00""#, limits: .init(maxStringBytes: 4)) == nil)
    }

    @Test func containerLimitIsExact() {
        let limit = 10_000
        let elements = Array(repeating: "0", count: limit)
        #expect(refusal("[" + elements.joined(separator: ",") + "]") == nil)
        let tooMany = "[" + (elements + ["0"]).joined(separator: ",") + "]"
        // Element 10,000 (zero-based) starts after "[" and 10,000 "0," pairs.
        #expect(refusal(tooMany) == StrictJSONError(kind: .tooManyMembers, offset: 1 + 2 * limit))

        let members = (0..<limit).map { #""k\#($0)":0"# }
        #expect(refusal("{" + members.joined(separator: ",") + "}") == nil)
        let prefix = "{" + members.joined(separator: ",") + ","
        #expect(
            refusal(prefix + #""extra":0}"#)
                == StrictJSONError(kind: .tooManyMembers, offset: prefix.utf8.count))
    }

    @Test func customContainerLimits() {
        let two = StrictJSONParser.Limits(maxContainerCount: 2)
        #expect(refusal("[1,2]", limits: two) == nil)
        #expect(refusal("[1,2,3]", limits: two) == StrictJSONError(kind: .tooManyMembers, offset: 5))
        #expect(refusal(#"{"a":1,"b":2,"c":3}"#, limits: two) == StrictJSONError(kind: .tooManyMembers, offset: 13))
        #expect(
            refusal(#"{"x":[1,2,3]}"#, limits: two)
                == StrictJSONError(kind: .tooManyMembers, offset: 10, path: [.key("x")]))
        let zero = StrictJSONParser.Limits(maxContainerCount: 0)
        #expect(refusal("[]", limits: zero) == nil)
        #expect(refusal("{}", limits: zero) == nil)
        #expect(refusal("[1]", limits: zero) == StrictJSONError(kind: .tooManyMembers, offset: 1))
    }
}

@Suite struct StrictJSONErrorTests {
    @Test func mapsToProvisioErrors() {
        let syntax = StrictJSONError(kind: .syntax, offset: 17)
        #expect(syntax.provisioError == ProvisioError(.invalidJSON, "The request body is not valid JSON (byte 17)."))
        #expect(syntax.provisioError.code.rawValue == "invalid_json")
        let duplicate = StrictJSONError(kind: .duplicateKey, offset: 7, path: [.key("a")])
        #expect(
            duplicate.provisioError
                == ProvisioError(.duplicateJSONKey, "The request body has the same key twice in one object (byte 7)."))
        #expect(duplicate.provisioError.code.rawValue == "duplicate_json_key")
        for kind in StrictJSONError.Kind.allCases where kind != .duplicateKey {
            #expect(StrictJSONError(kind: kind, offset: 0).provisioError.code == .invalidJSON)
        }
    }

    @Test func messagesNeverQuoteTheInput() {
        let secret = "4111111111111111"
        let key = "sk_live_51HxQ"
        let documents: [[UInt8]] = [
            Array(#"{"\#(key)":"\#(secret)","cvv":"123","\#(key)":"\#(secret)"}"#.utf8),
            Array(#"{"\#(key)":"\#(secret)"#.utf8) + [0x01] + Array(#""}"#.utf8),
            Array(#"{"\#(key)":"\#(secret)"#.utf8) + [0xFF] + Array(#""}"#.utf8),
            Array(#"{"\#(key)":"\#(secret)\q"}"#.utf8),
            Array(#"{"\#(key)":["\#(secret)\ud800"]}"#.utf8),
            Array(#"{"\#(key)":["\#(secret)",01]}"#.utf8),
            Array(#"{"\#(key)":"\#(secret)"} "\#(secret)""#.utf8),
            Array(#"{"\#(key)":"\#(secret)",}"#.utf8),
            Array(#"{"\#(key)":"\#(secret)""#.utf8),
        ]
        var kinds: Set<StrictJSONError.Kind> = []
        for document in documents {
            guard let error = refusal(document) else {
                Issue.record("accepted \(String(decoding: document, as: UTF8.self))")
                continue
            }
            kinds.insert(error.kind)
            for text in [error.provisioError.message, error.provisioError.description, error.description, "\(error)"] {
                #expect(!text.contains(secret) && !text.contains("4111") && !text.contains(key) && !text.contains("cvv"))
            }
        }
        #expect(kinds.count == documents.count)
        // The caller can still find the key when it decides to show it.
        let duplicate = refusal(documents[0])
        #expect(duplicate?.path == [.key(key)])
        #expect(duplicate?.pathDescription(revealingKeys: true) == #"$["sk_live_51HxQ"]"#)
        #expect(duplicate?.pathDescription(revealingKeys: false) == "$.<key>")
        #expect(refusal(documents[4])?.pathDescription(revealingKeys: false) == "$.<key>[0]")
    }
}

@Suite struct JSONValueAccessTests {
    @Test func walksNestedObjectsAndArrays() throws {
        let value = try parse(#"{"card":{"pan":"4111","exp":{"m":1,"y":2030}},"list":[{"x":1}],"z":null,"ok":true}"#)
        #expect(value["card"]?["pan"] == "4111")
        #expect(value["card"]?["pan"]?.stringValue == "4111")
        #expect(value["card"]?["exp"]?["y"]?.numberLiteral == "2030")
        #expect(value["list"]?[0]?["x"] == 1)
        #expect(value["list"]?[1] == nil)
        #expect(value["list"]?[-1] == nil)
        #expect(value["missing"] == nil)
        #expect(value["card"]?[0] == nil)
        #expect(value["z"]?.isNull == true)
        #expect(value["ok"]?.boolValue == true)
        #expect(value["list"]?.arrayElements?.count == 1)
        #expect(value.objectMembers?.map(\.key) == ["card", "list", "z", "ok"])
        #expect(value.stringValue == nil)
    }

    @Test func findsUnknownFieldsAtAnyLevel() throws {
        let value = try parse(#"{"card":{"pan":"4111","pin":"1234","exp":{}},"extra":1,"amount":"1.00"}"#)
        #expect(value.objectValue?.unknownKeys(allowed: ["card", "amount"]) == ["extra"])
        #expect(value["card"]?.objectValue?.unknownKeys(allowed: ["pan", "exp"]) == ["pin"])
        // Exact scalars: a decomposed key is not the allowed precomposed one.
        let accented = try parse(#"{"e\u0301":1}"#)
        #expect(accented.objectValue?.unknownKeys(allowed: ["é"]) == ["e\u{301}"])
    }

    @Test func objectsRefuseRepeatedKeysWhenBuilt() {
        #expect(JSONObject(members: [(key: "a", value: 1), (key: "a", value: 2)]) == nil)
        #expect(JSONObject(members: [(key: "é", value: 1), (key: "e\u{301}", value: 2)]) == nil)
        var object = JSONObject()
        let first = object.insert(1, forKey: "a")
        let second = object.insert(2, forKey: "a")
        #expect(first)
        #expect(!second)
        #expect(object["a"] == 1)
        #expect(object.count == 1)
    }

    @Test func objectEqualityIgnoresOrder() throws {
        let left = try parse(#"{"a":1,"b":2}"#)
        let right = try parse(#"{"b":2,"a":1}"#)
        #expect(left == right)
        #expect(left.hashValue == right.hashValue)
        #expect(left.objectMembers?.map(\.key) != right.objectMembers?.map(\.key))
    }

    @Test func validatesNumberLiterals() {
        for valid in ["0", "-0", "1.5", "1e10", "1E-10", "-0.0e+0", "123", "12345678901234567890123456789"] {
            #expect(StrictJSONParser.isValidNumberLiteral(valid), "\(valid)")
            #expect(JSONValue(numberLiteral: valid) == .number(valid))
        }
        for invalid in ["", "-", "01", "1.", ".1", "+1", "1e", "0x1", "1 ", " 1", "NaN", "1.5.3", "١", "1e+-1", "--1"] {
            #expect(!StrictJSONParser.isValidNumberLiteral(invalid), "\(invalid)")
            #expect(JSONValue(numberLiteral: invalid) == nil)
        }
    }
}
