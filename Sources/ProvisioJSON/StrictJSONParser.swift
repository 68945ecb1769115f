import Foundation

/// A strict RFC 8259 parser for every JSON document that comes from outside.
///
/// Foundation's `JSONSerialization` and `JSONDecoder` accept duplicate keys and keep one of them,
/// so two readers of one body (the decoder, an idempotency digest) can see different requests.
/// This parser refuses anything the RFC does not allow and anything ambiguous: duplicate keys at
/// any depth (after unescaping, and canonically equivalent keys too, see `JSONObject`), invalid
/// UTF-8, lone surrogate escapes, a byte order mark, and data after the value. It also bounds size,
/// depth, string length and container size, and is iterative (an explicit stack), so no input can
/// make it recurse or crash.
public enum StrictJSONParser {
    public struct Limits: Sendable, Hashable {
        /// Deepest nesting of arrays and objects: `[]` and `{}` are depth 1, a top-level scalar 0.
        /// Values above `depthCeiling` act as `depthCeiling`.
        public var maxDepth: Int
        /// Longest input, in bytes.
        public var maxBytes: Int
        /// Longest string or key, in UTF-8 bytes after unescaping.
        public var maxStringBytes: Int
        /// Most members in one object or elements in one array.
        public var maxContainerCount: Int

        /// The most nesting any limits allow: values are compared, hashed, serialized and freed
        /// recursively, so their depth must stay far from the stack size.
        public static let depthCeiling = 512

        public static let `default` = Limits()

        public init(
            maxDepth: Int = 32, maxBytes: Int = 1 << 20, maxStringBytes: Int = 1 << 16, maxContainerCount: Int = 10_000
        ) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
            self.maxStringBytes = maxStringBytes
            self.maxContainerCount = maxContainerCount
        }
    }

    /// Parses exactly one JSON value, surrounded by optional whitespace, or throws why not.
    public static func parse(_ bytes: some Collection<UInt8>, limits: Limits = .default) throws(StrictJSONError)
        -> JSONValue
    {
        // Before copying anything: a body over the limit is refused without reading it.
        guard bytes.count <= limits.maxBytes else {
            throw StrictJSONError(kind: .tooLarge, offset: max(limits.maxBytes, 0))
        }
        var reader = Reader(bytes: Array(bytes), limits: limits)
        return try reader.parseDocument()
    }

    /// Whether `text` is exactly an RFC 8259 number:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    public static func isValidNumberLiteral(_ text: String) -> Bool {
        var reader = Reader(bytes: Array(text.utf8), limits: .default)
        guard !reader.bytes.isEmpty, (try? reader.readNumber()) != nil else { return false }
        return reader.position == reader.bytes.count
    }
}

extension StrictJSONParser {
    /// One open array or object.
    private struct Frame {
        let isObject: Bool
        var elements: [JSONValue] = []
        var object = JSONObject()
        /// The key whose value is being read (objects only).
        var pendingKey: String?
        /// Where in this container the parser is, for error paths; nil between members.
        var current: StrictJSONError.PathComponent?
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        let maxDepth: Int
        let maxStringBytes: Int
        let maxContainerCount: Int
        private var stack: [Frame] = []

        init(bytes: [UInt8], limits: Limits) {
            self.bytes = bytes
            maxDepth = min(limits.maxDepth, Limits.depthCeiling)
            maxStringBytes = limits.maxStringBytes
            maxContainerCount = limits.maxContainerCount
        }

        private func failure(_ kind: StrictJSONError.Kind, at offset: Int) -> StrictJSONError {
            StrictJSONError(kind: kind, offset: offset, path: stack.compactMap(\.current))
        }

        private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        /// RFC 8259 whitespace: space, tab, LF, CR — nothing else.
        private mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        // MARK: Structure

        mutating func parseDocument() throws(StrictJSONError) -> JSONValue {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw failure(.byteOrderMark, at: 0) }
            skipWhitespace()
            // Each turn reads one value at `position`; a container is opened and left on the stack
            // (the next turn reads its first member), a scalar or closed container is attached to
            // its parent, closing parents whose last member it was.
            nextValue: while true {
                guard let byte = peek else { throw failure(.unexpectedEnd, at: position) }
                var value: JSONValue
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = byte == UInt8(ascii: "{")
                    guard stack.count < maxDepth else { throw failure(.tooDeep, at: position) }
                    stack.append(Frame(isObject: isObject))
                    position += 1
                    skipWhitespace()
                    if peek == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        position += 1
                        value = closeContainer()
                    } else {
                        try beginMember()
                        continue nextValue
                    }
                case UInt8(ascii: "\""):
                    value = .string(try readString())
                case UInt8(ascii: "t"):
                    try readLiteral("true")
                    value = .bool(true)
                case UInt8(ascii: "f"):
                    try readLiteral("false")
                    value = .bool(false)
                case UInt8(ascii: "n"):
                    try readLiteral("null")
                    value = .null
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    value = .number(try readNumber())
                default:
                    throw failure(.syntax, at: position)
                }

                while !stack.isEmpty {
                    let top = stack.count - 1
                    if stack[top].isObject, let key = stack[top].pendingKey {
                        stack[top].object.insert(value, forKey: key)
                        stack[top].pendingKey = nil
                    } else {
                        stack[top].elements.append(value)
                    }
                    stack[top].current = nil
                    skipWhitespace()
                    guard let separator = peek else { throw failure(.unexpectedEnd, at: position) }
                    let closer = stack[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if separator == UInt8(ascii: ",") {
                        position += 1
                        skipWhitespace()
                        try beginMember()
                        continue nextValue
                    } else if separator == closer {
                        position += 1
                        value = closeContainer()
                    } else {
                        throw failure(.syntax, at: position)
                    }
                }
                skipWhitespace()
                guard position == bytes.count else { throw failure(.trailingData, at: position) }
                return value
            }
        }

        /// Pops the innermost container as a value.
        private mutating func closeContainer() -> JSONValue {
            let frame = stack.removeLast()
            return frame.isObject ? .object(frame.object) : .array(frame.elements)
        }

        /// Positions the reader at the start of the next member's value: for an object reads the key
        /// and colon. Counts are checked before anything of the member is read.
        private mutating func beginMember() throws(StrictJSONError) {
            let top = stack.count - 1
            let count = stack[top].isObject ? stack[top].object.count : stack[top].elements.count
            guard count < maxContainerCount else { throw failure(.tooManyMembers, at: position) }
            guard stack[top].isObject else {
                stack[top].current = .index(count)
                return
            }
            let keyStart = position
            // Also where `{"a":1,}` and `{1:2}` fail.
            guard peek == UInt8(ascii: "\"") else {
                throw failure(peek == nil ? .unexpectedEnd : .syntax, at: position)
            }
            let key = try readString()
            stack[top].current = .key(key)
            guard !stack[top].object.containsEquivalentKey(key) else { throw failure(.duplicateKey, at: keyStart) }
            stack[top].pendingKey = key
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else {
                throw failure(peek == nil ? .unexpectedEnd : .syntax, at: position)
            }
            position += 1
            skipWhitespace()
        }

        // MARK: Scalars

        private mutating func readLiteral(_ literal: String) throws(StrictJSONError) {
            for expected in literal.utf8 {
                guard let byte = peek else { throw failure(.unexpectedEnd, at: position) }
                guard byte == expected else { throw failure(.syntax, at: position) }
                position += 1
            }
        }

        private static func isDigit(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        /// Reads an RFC 8259 number and returns its literal text.
        mutating func readNumber() throws(StrictJSONError) -> String {
            let start = position
            if peek == UInt8(ascii: "-") { position += 1 }
            if peek == UInt8(ascii: "0") {
                position += 1
                // "01", "-00": the RFC allows no leading zeros.
                if Self.isDigit(peek) { throw failure(.invalidNumber, at: position) }
            } else {
                try readDigits()
            }
            if peek == UInt8(ascii: ".") {
                position += 1
                try readDigits()
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                position += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
                try readDigits()
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        /// One or more digits.
        private mutating func readDigits() throws(StrictJSONError) {
            guard Self.isDigit(peek) else { throw failure(.invalidNumber, at: position) }
            while Self.isDigit(peek) { position += 1 }
        }

        /// Reads a string starting at its opening quote and returns it unescaped.
        private mutating func readString() throws(StrictJSONError) -> String {
            let start = position
            position += 1
            var output: [UInt8] = []
            while true {
                guard let byte = peek else { throw failure(.unexpectedEnd, at: position) }
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    // Validated above, so decoding replaces nothing.
                    return String(decoding: output, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    try readEscape(into: &output)
                case 0x00..<0x20:
                    throw failure(.controlCharacter, at: position)
                case 0x20..<0x80:
                    output.append(byte)
                    position += 1
                default:
                    let length = try validUTF8SequenceLength()
                    output.append(contentsOf: bytes[position..<position + length])
                    position += length
                }
                guard output.count <= maxStringBytes else { throw failure(.stringTooLong, at: start) }
            }
        }

        /// Reads one escape at the backslash and appends the UTF-8 of what it stands for.
        private mutating func readEscape(into output: inout [UInt8]) throws(StrictJSONError) {
            let escapeStart = position
            guard position + 1 < bytes.count else { throw failure(.unexpectedEnd, at: bytes.count) }
            let simple: UInt8
            switch bytes[position + 1] {
            case UInt8(ascii: "\""): simple = 0x22
            case UInt8(ascii: "\\"): simple = 0x5C
            case UInt8(ascii: "/"): simple = 0x2F
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "u"):
                let unit = try readUnicodeEscape()
                var scalar: UInt32
                switch unit {
                case 0xD800...0xDBFF:
                    // A high surrogate must be followed at once by an escaped low surrogate.
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw failure(.loneSurrogate, at: escapeStart) }
                    let low = try readUnicodeEscape()
                    guard (0xDC00...0xDFFF).contains(low) else { throw failure(.loneSurrogate, at: escapeStart) }
                    scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                case 0xDC00...0xDFFF:
                    throw failure(.loneSurrogate, at: escapeStart)
                default:
                    scalar = unit
                }
                Self.appendUTF8(of: scalar, to: &output)
                return
            default:
                throw failure(.invalidEscape, at: escapeStart)
            }
            output.append(simple)
            position += 2
        }

        /// Reads `\uXXXX` at the backslash and returns the code unit.
        private mutating func readUnicodeEscape() throws(StrictJSONError) -> UInt32 {
            let escapeStart = position
            var unit: UInt32 = 0
            for offset in position + 2..<position + 6 {
                guard offset < bytes.count else { throw failure(.unexpectedEnd, at: bytes.count) }
                let byte = bytes[offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure(.invalidEscape, at: escapeStart)
                }
                unit = unit << 4 | UInt32(digit)
            }
            position += 6
            return unit
        }

        private static func appendUTF8(of scalar: UInt32, to output: inout [UInt8]) {
            switch scalar {
            case 0..<0x80:
                output.append(UInt8(scalar))
            case 0x80..<0x800:
                output.append(UInt8(0xC0 | scalar >> 6))
                output.append(UInt8(0x80 | scalar & 0x3F))
            case 0x800..<0x10000:
                output.append(UInt8(0xE0 | scalar >> 12))
                output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                output.append(UInt8(0x80 | scalar & 0x3F))
            default:
                output.append(UInt8(0xF0 | scalar >> 18))
                output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                output.append(UInt8(0x80 | scalar & 0x3F))
            }
        }

        /// The length of the well-formed UTF-8 sequence at a non-ASCII byte (Unicode table 3-7):
        /// no overlong forms, no encoded surrogates (U+D800–DFFF), nothing above U+10FFFF.
        private func validUTF8SequenceLength() throws(StrictJSONError) -> Int {
            let lead = bytes[position]
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                secondRange = 0x80...0x9F
            case 0xF0:
                length = 4
                secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                secondRange = 0x80...0x8F
            default:
                // 0x80–0xC1 (stray continuation, overlong two-byte lead) and 0xF5–0xFF.
                throw failure(.invalidUTF8, at: position)
            }
            guard position + length <= bytes.count, secondRange.contains(bytes[position + 1]) else {
                throw failure(.invalidUTF8, at: position)
            }
            for offset in position + 2..<position + length where !(0x80...0xBF).contains(bytes[offset]) {
                throw failure(.invalidUTF8, at: position)
            }
            return length
        }
    }
}
