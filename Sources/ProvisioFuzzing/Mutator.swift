/// The mutation engine: turns a seed into a nearby input with a few random edits, biased towards
/// the values parsers get wrong (boundaries, separators, encodings, lengths).
public struct Mutator: Sendable {
    /// Target-specific fragments (field names, keywords, DER snippets) inserted like the generic ones.
    public var dictionary: [[UInt8]]
    /// Inputs never grow past this many bytes (a mutation that would is cut back).
    public var maxLength: Int

    public init(dictionary: [[UInt8]] = [], maxLength: Int = 98_304) {
        self.dictionary = dictionary
        self.maxLength = maxLength
    }

    /// One mutated input: `seeds[random]` edited one to four times (now and then up to sixteen).
    public func mutate(seeds: [[UInt8]], using random: inout SplitMix64) -> [UInt8] {
        var bytes = seeds.isEmpty ? [] : random.element(of: seeds)
        let edits = random.oneIn(8) ? 5 + random.below(12) : 1 + random.below(4)
        for _ in 0..<edits {
            mutateOnce(&bytes, seeds: seeds, using: &random)
            if bytes.count > maxLength { bytes.removeSubrange(maxLength...) }
        }
        return bytes
    }

    func mutateOnce(_ bytes: inout [UInt8], seeds: [[UInt8]], using random: inout SplitMix64) {
        switch random.below(17) {
        case 0 where !bytes.isEmpty:  // flip one bit
            bytes[random.below(bytes.count)] ^= 1 << UInt8(random.below(8))
        case 1 where !bytes.isEmpty:  // flip a whole byte
            bytes[random.below(bytes.count)] ^= 0xFF
        case 2 where !bytes.isEmpty:  // overwrite a byte with an interesting one
            bytes[random.below(bytes.count)] = random.element(of: InterestingValues.bytes)
        case 3:  // insert a random byte
            bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: random.below(bytes.count + 1))
        case 4 where !bytes.isEmpty:  // delete a span
            let start = random.below(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.below(random.oneIn(4) ? 256 : 8)))
        case 5 where !bytes.isEmpty:  // duplicate a span elsewhere (a repeated key, parameter, certificate)
            let span = randomSpan(of: bytes, maxLength: random.oneIn(4) ? 2048 : 32, using: &random)
            bytes.insert(contentsOf: span, at: random.below(bytes.count + 1))
        case 6 where !seeds.isEmpty:  // splice: a prefix of this input and a suffix of another seed
            let other = random.element(of: seeds)
            bytes = Array(bytes[..<random.below(bytes.count + 1)]) + other[random.below(other.count + 1)...]
        case 7:  // insert a generic interesting token
            insert(random.element(of: InterestingValues.tokens), into: &bytes, using: &random)
        case 8 where !dictionary.isEmpty:  // insert a target-specific token
            insert(random.element(of: dictionary), into: &bytes, using: &random)
        case 9 where !dictionary.isEmpty && !bytes.isEmpty:  // overwrite with a target-specific token
            overwrite(random.element(of: dictionary), in: &bytes, using: &random)
        case 10:  // a number at an integer boundary, in place of a digit run when there is one
            replaceNumber(in: &bytes, with: random.element(of: InterestingValues.numbers), using: &random)
        case 11:  // an ASN.1 length: short, long form 0x81–0x84 with small or huge values, or indefinite
            let length = random.element(of: InterestingValues.asn1Lengths)
            if random.oneIn(2) || bytes.isEmpty {
                insert(length, into: &bytes, using: &random)
            } else {
                overwrite(length, in: &bytes, using: &random)
            }
        case 12:  // a long run of one byte or one token (now and then past 64 KiB, a common limit)
            let unit: [UInt8] =
                random.oneIn(2)
                ? [random.element(of: InterestingValues.bytes)] : random.element(of: InterestingValues.tokens)
            let length = random.oneIn(8) ? 65_537 : random.element(of: [16, 255, 256, 1024, 4097])
            insert(Self.run(of: unit, length: min(length, max(maxLength - bytes.count, 0))), into: &bytes, using: &random)
        case 13 where !bytes.isEmpty:  // a binary integer at a boundary (big endian), overwriting
            overwrite(random.element(of: InterestingValues.binaryIntegers), in: &bytes, using: &random)
        case 14 where !bytes.isEmpty:  // truncate
            bytes.removeSubrange(random.below(bytes.count)...)
        case 15 where !bytes.isEmpty:  // swap two spans (reorders members, certificates, parameters)
            let first = randomRange(in: bytes.count, maxLength: 64, using: &random)
            let second = randomRange(in: bytes.count, maxLength: 64, using: &random)
            guard first.upperBound <= second.lowerBound else { return }
            let a = Array(bytes[first])
            let b = Array(bytes[second])
            bytes.replaceSubrange(second, with: a)
            bytes.replaceSubrange(first, with: b)
        case 16:  // a token at the end of a quoted string (a JSON value or key): edits a field, not the syntax
            let tokens = dictionary.isEmpty || random.oneIn(2) ? InterestingValues.tokens : dictionary
            let token = random.element(of: tokens)
            let origin = random.below(bytes.count + 1)
            let quote = UInt8(ascii: "\"")
            if let position = bytes[origin...].firstIndex(of: quote) ?? bytes[..<origin].firstIndex(of: quote) {
                bytes.insert(contentsOf: token, at: position)
            } else {
                insert(token, into: &bytes, using: &random)
            }
        default:  // the chosen edit did not apply (empty input): insert an interesting byte instead
            bytes.insert(random.element(of: InterestingValues.bytes), at: random.below(bytes.count + 1))
        }
    }

    /// `unit` repeated to at least `length` bytes.
    static func run(of unit: [UInt8], length: Int) -> [UInt8] {
        guard unit.count > 1 else { return [UInt8](repeating: unit.first ?? 0, count: length) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length + unit.count)
        while bytes.count < length { bytes.append(contentsOf: unit) }
        return bytes
    }

    private func insert(_ token: [UInt8], into bytes: inout [UInt8], using random: inout SplitMix64) {
        bytes.insert(contentsOf: token, at: random.below(bytes.count + 1))
    }

    private func overwrite(_ token: [UInt8], in bytes: inout [UInt8], using random: inout SplitMix64) {
        let start = random.below(bytes.count + 1)
        bytes.replaceSubrange(start..<min(bytes.count, start + token.count), with: token)
    }

    private func randomRange(in count: Int, maxLength: Int, using random: inout SplitMix64) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let start = random.below(count)
        return start..<min(count, start + 1 + random.below(maxLength))
    }

    private func randomSpan(of bytes: [UInt8], maxLength: Int, using random: inout SplitMix64) -> [UInt8] {
        Array(bytes[randomRange(in: bytes.count, maxLength: maxLength, using: &random)])
    }

    /// Replaces a run of ASCII digits (possibly signed) with `number`, or inserts it when the
    /// input has no digits.
    private func replaceNumber(in bytes: inout [UInt8], with number: [UInt8], using random: inout SplitMix64) {
        // The first digit at or after a random position (wrapping around).
        let origin = random.below(bytes.count + 1)
        guard
            let found = bytes[origin...].firstIndex(where: Self.isDigit) ?? bytes[..<origin].firstIndex(where: Self.isDigit)
        else {
            insert(number, into: &bytes, using: &random)
            return
        }
        var start = found
        var end = start
        while start > 0, (0x30...0x39).contains(bytes[start - 1]) { start -= 1 }
        if start > 0, bytes[start - 1] == UInt8(ascii: "-") { start -= 1 }
        while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
        bytes.replaceSubrange(start..<end, with: number)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}

/// The values that make parsers take their rarely used branches.
public enum InterestingValues {
    public static let bytes: [UInt8] = [
        0x00, 0x01, 0x08, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x22, 0x25, 0x26, 0x27, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31,
        0x39, 0x3A, 0x3D, 0x3F, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x7F, 0x80, 0x81, 0x82, 0x83, 0x84, 0xBF, 0xC0, 0xC2,
        0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFE, 0xFF,
    ]

    /// Decimal numbers at and just past the boundaries of the integer types and of `Double`.
    public static let numbers: [[UInt8]] = [
        "0", "-0", "1", "-1", "00", "007", "127", "128", "255", "256", "-129", "32767", "32768", "65535", "65536",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "9007199254740993",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "99999999999999999999999999999999999999", "1e308", "1e309",
        "-1e309", "1.7976931348623157e308", "4.9e-324", "0.1", "1.0", "1e2", "1E+2", "+1", "0x10", "NaN", "Infinity",
    ].map { Array($0.utf8) }

    /// Separators, escapes, traversal, encodings and Unicode that change meaning or length when
    /// normalised, uppercased or decoded.
    public static let tokens: [[UInt8]] =
        [
            "\\u0000", "\\u001f", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\\"", "\\\\", "\\/", "\\x00", "%00",
            "%", "%2", "%25", "%FF", "%C0%AF", "%2e%2e%2f", "..", "../", "..\\", "/", "//", "\\", "\"", "'", "`",
            "&", "=", "&&", "==", "?", "#", ";", ",", ":", "+", " ", "\t", "\r\n", "null", "true", "false", "[]", "{}",
            "[", "]", "{", "}", "\"\":\"\"", "é", "e\u{301}", "ß", "ı", "İ", "ﬃ", "\u{C5}", "A\u{30A}", "\u{212B}", "🐎", "👩‍👩‍👧",
            "\u{202E}", "\u{200B}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}", "\u{85}", "\u{2028}", "\u{0}",
            "\u{7F}", "١٢٣٤", "４２", "½", "\u{0660}",
        ].map { Array($0.utf8) } + [
            [0xC0, 0xAF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xEF, 0xBB, 0xBF], [0xFF, 0xFE],
            [0xE2, 0x82], [0x80],
        ]

    /// ASN.1 DER length encodings: short forms at the edge, long forms 0x81–0x84 with small and huge
    /// values, the non-minimal forms DER forbids, indefinite length (0x80) and the invalid 0x85+.
    public static let asn1Lengths: [[UInt8]] = [
        [0x00], [0x01], [0x7F], [0x80], [0x80, 0x00, 0x00], [0x81, 0x00], [0x81, 0x7F], [0x81, 0x80], [0x81, 0xFF],
        [0x82, 0x00, 0x80], [0x82, 0x01, 0x00], [0x82, 0xFF, 0xFF], [0x83, 0x00, 0x00, 0x01], [0x83, 0xFF, 0xFF, 0xFF],
        [0x84, 0x00, 0x00, 0x00, 0x00], [0x84, 0x7F, 0xFF, 0xFF, 0xFF], [0x84, 0xFF, 0xFF, 0xFF, 0xFF],
        [0x85, 0x01, 0x00, 0x00, 0x00, 0x00], [0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0xFF],
        [0x30, 0x80], [0x30, 0x00], [0x05, 0x00], [0x01, 0x01, 0xFF], [0x02, 0x00], [0x03, 0x01, 0x08],
        [0x06, 0x00], [0x06, 0x01, 0x80], [0xA3, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], [0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F],
    ]

    /// Big-endian integers at the boundaries of 8, 16, 32 and 64 bits.
    public static let binaryIntegers: [[UInt8]] = [
        [0x00], [0x7F], [0x80], [0xFF], [0x7F, 0xFF], [0x80, 0x00], [0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF],
        [0x80, 0x00, 0x00, 0x00], [0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00, 0x00, 0x00],
        [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
        [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
    ]
}
