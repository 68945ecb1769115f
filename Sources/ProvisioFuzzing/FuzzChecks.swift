import Foundation
import ProvisioCore

/// Six-byte fragments of secret-like values (a PAN, a webhook secret) that no refusal message may
/// contain. Fragments are packed into integers so that checking a message is one set lookup per byte.
public struct SecretFragments: Sendable, Hashable {
    /// The fragment length: long enough not to match ordinary words and numbers by chance, short
    /// enough to catch a partial echo (a BIN, half a key).
    public static let length = 6

    private var packed: Set<UInt64> = []

    public init() {}

    public init(_ values: some Sequence<[UInt8]>) {
        for value in values { insert(value) }
    }

    public static func + (lhs: SecretFragments, rhs: SecretFragments) -> SecretFragments {
        var sum = lhs
        sum.packed.formUnion(rhs.packed)
        return sum
    }

    public var isEmpty: Bool { packed.isEmpty }
    public var count: Int { packed.count }

    /// Adds every fragment of `value` (values shorter than a fragment add nothing).
    public mutating func insert(_ value: [UInt8]) {
        guard value.count >= Self.length else { return }
        for start in 0...(value.count - Self.length) {
            packed.insert(Self.pack(value[start..<(start + Self.length)]))
        }
    }

    /// The first fragment of a secret that `text` contains, if any.
    public func leak(in text: [UInt8]) -> [UInt8]? {
        guard !packed.isEmpty, text.count >= Self.length else { return nil }
        for start in 0...(text.count - Self.length) {
            let window = text[start..<(start + Self.length)]
            if packed.contains(Self.pack(window)) { return Array(window) }
        }
        return nil
    }

    private static func pack(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}

/// The checks every target applies to a refusal, and helpers for reading inputs leniently.
public enum FuzzChecks {
    /// Whether `code` is `snake_case`: `^[a-z][a-z0-9_]*$`.
    public static func isSnakeCase(_ code: String) -> Bool {
        guard let first = code.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        return code.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "_")
        }
    }

    /// Classifies an error a parser threw. It must be a `ProvisioError` whose code is `snake_case`
    /// and one of `codes` (when given), whose message is not empty and contains no fragment of
    /// `secrets` nor of `inputSecrets` (secret-like values of this very input) — unless that fragment
    /// is also part of an `echoable` value, a field the parser names on purpose (a card id).
    public static func refusal(
        _ error: any Error, codes: Set<String> = [], secrets: SecretFragments = SecretFragments(),
        inputSecrets: [[UInt8]] = [], echoable: @autoclosure () -> [[UInt8]] = []
    ) -> FuzzOutcome {
        guard let error = error as? ProvisioError else {
            return .violation(
                "threw \(type(of: error)), not a ProvisioError: \(String(String(describing: error).prefix(300)))")
        }
        let code = error.code.rawValue
        guard isSnakeCase(code) else {
            return .violation("refused with code '\(code.prefix(100))', which is not snake_case")
        }
        guard codes.isEmpty || codes.contains(code) else {
            return .violation(
                "refused with code \(code), not one this parser is known to use (\(codes.sorted().joined(separator: ", ")));"
                    + " if the code is new on purpose, add it to the target's list")
        }
        guard !error.message.isEmpty else {
            return .violation("refused with code \(code) and an empty message")
        }
        let message = Array(error.message.utf8)
        let fragments = secrets + SecretFragments(inputSecrets)
        if let leaked = fragments.leak(in: message) {
            let allowed = echoable()
            if !allowed.contains(where: { contains($0, leaked) }) {
                return .violation(
                    "the \(code) message contains '\(String(decoding: leaked, as: UTF8.self))', a fragment of a secret-like field:"
                        + " \(String(error.message.prefix(300)))")
            }
        }
        return .refused(code: code)
    }

    /// Whether `haystack` contains `needle` as consecutive bytes.
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return Data(haystack).range(of: Data(needle)) != nil
    }

    /// The digits of `value` with spaces and dashes dropped, as a PAN parser reads them; only the
    /// digit runs of at least one fragment's length (what a leaked PAN would look like).
    public static func digitRuns(_ value: [UInt8]) -> [[UInt8]] {
        var runs: [[UInt8]] = []
        var run: [UInt8] = []
        for byte in value {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                run.append(byte)
            } else if byte != UInt8(ascii: " "), byte != UInt8(ascii: "-") {
                if run.count >= SecretFragments.length { runs.append(run) }
                run = []
            }
        }
        if run.count >= SecretFragments.length { runs.append(run) }
        return runs
    }
}

/// Hex and base64 as RFC 4648 defines them, decoded independently of `BinaryText` (and of
/// Foundation) so that an accepted nonce can be checked against what its text really encodes.
public enum StrictBinaryText {
    /// `BinaryText.decodeHexOrBase64`'s contract: surrounding whitespace trimmed, then even-length
    /// hex, else standard or URL-safe base64 with optional padding; nil for anything else, and for
    /// text that encodes no bytes.
    public static func decodeHexOrBase64(_ text: String) -> [UInt8]? {
        let trimmed = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        return decodeHex(trimmed) ?? decodeBase64(trimmed)
    }

    static func decodeHex(_ text: [UInt8]) -> [UInt8]? {
        guard !text.isEmpty, text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: text.count, by: 2) {
            guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// Base64 whose only `=` are one or two at the end, completing the last group of four.
    static func decodeBase64(_ text: [UInt8]) -> [UInt8]? {
        var symbols = text
        var padding = 0
        while symbols.last == UInt8(ascii: "="), padding < 2 {
            symbols.removeLast()
            padding += 1
        }
        let remainder = symbols.count % 4
        guard !symbols.isEmpty, remainder != 1, padding == 0 || (remainder >= 2 && remainder + padding <= 4) else {
            return nil
        }
        var values: [UInt32] = []
        values.reserveCapacity(symbols.count)
        for symbol in symbols {
            guard let value = sextet(symbol) else { return nil }
            values.append(value)
        }
        var bytes: [UInt8] = []
        var index = 0
        while index < values.count {
            let group = values[index..<min(index + 4, values.count)]
            var word: UInt32 = 0
            for (position, value) in group.enumerated() { word |= value << (18 - 6 * UInt32(position)) }
            let produced = group.count == 4 ? 3 : group.count - 1
            for position in 0..<produced { bytes.append(UInt8(truncatingIfNeeded: word >> (16 - 8 * UInt32(position)))) }
            index += 4
        }
        return bytes
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Standard and URL-safe alphabets both (`BinaryText` maps `-` and `_` to `+` and `/`).
    private static func sextet(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }
}

/// Reads values out of a JSON-ish document without trusting it to be JSON: every `"key": value`
/// wherever it appears, duplicates included. For deciding what a message may echo, never for parsing.
public enum LenientJSON {
    /// The raw bytes of every value written after `"key":`, and for strings also their unescaped
    /// text when it unescapes.
    public static func values(forKey key: String, in input: [UInt8]) -> [[UInt8]] {
        let data = Data(input)
        let pattern = Data("\"\(key)\"".utf8)
        var results: [[UInt8]] = []
        var searchStart = data.startIndex
        while searchStart < data.endIndex, let found = data.range(of: pattern, in: searchStart..<data.endIndex) {
            searchStart = found.upperBound
            var position = skipWhitespace(input, from: found.upperBound)
            guard position < input.count, input[position] == UInt8(ascii: ":") else { continue }
            position = skipWhitespace(input, from: position + 1)
            guard position < input.count else { continue }
            if input[position] == UInt8(ascii: "\"") {
                var end = position + 1
                var escaped = false
                while end < input.count {
                    if escaped {
                        escaped = false
                    } else if input[end] == UInt8(ascii: "\\") {
                        escaped = true
                    } else if input[end] == UInt8(ascii: "\"") {
                        break
                    }
                    end += 1
                }
                let raw = Array(input[(position + 1)..<min(end, input.count)])
                results.append(raw)
                if end < input.count,
                    let text = try? JSONSerialization.jsonObject(
                        with: Data(input[position...end]), options: [.fragmentsAllowed]) as? String,
                    !text.utf8.elementsEqual(raw)
                {
                    results.append(Array(text.utf8))
                }
            } else {
                var end = position
                while end < input.count, !",}] \t\r\n".utf8.contains(input[end]) { end += 1 }
                results.append(Array(input[position..<end]))
            }
        }
        return results
    }

    private static func skipWhitespace(_ input: [UInt8], from start: Int) -> Int {
        var position = start
        while position < input.count, [0x20, 0x09, 0x0A, 0x0D].contains(input[position]) { position += 1 }
        return position
    }
}

/// Lowercase hex, for reports.
public enum FuzzHex {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        BinaryText.lowercaseHex(bytes)
    }

    /// Decodes hex written with or without spaces and newlines; nil if it is not hex.
    public static func decode(_ text: String) -> [UInt8]? {
        let compact = text.filter { !$0.isWhitespace }
        if compact.isEmpty { return [] }
        return BinaryText.decodeHex(compact).map { Array($0) }
    }
}
