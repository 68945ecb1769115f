import Foundation

/// A JSON value as `StrictJSONParser` read it, kept exact so it can be hashed, compared and
/// re-serialized without losing anything the sender wrote.
///
/// - Numbers keep their literal text (`1`, `1.0` and `1e0` are three different values): converting
///   to `Double` would round large integers and amounts, and picking one spelling for "the same
///   number" would need a decimal normalizer that is easy to get subtly wrong. Callers that need a
///   numeric value convert the text themselves, with the range and precision they expect.
/// - Strings and keys compare by their exact Unicode scalars (UTF-8 bytes), not by `String ==`,
///   which treats canonically equivalent strings ("é" precomposed and decomposed) as equal. Two
///   values are `==` exactly when their `canonicalData()` is the same bytes.
/// - Objects compare regardless of member order (JSON objects are unordered); `JSONObject` still
///   keeps the order the members were written in.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's literal text. The parser only produces RFC 8259 number literals; the case itself
    /// does not check, so build numbers with `init?(numberLiteral:)` or an integer literal.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A number from its literal text, nil unless the text is an RFC 8259 number.
    public init?(numberLiteral text: String) {
        guard StrictJSONParser.isValidNumberLiteral(text) else { return nil }
        self = .number(text)
    }

    /// A number from an integer (always a valid literal).
    public init(integer: some BinaryInteger) {
        self = .number(String(integer))
    }

    // MARK: Walking the tree

    /// The member named `key` when this is an object (keys match by exact scalars), else nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array and the index is in range, else nil.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The object, when this is one.
    public var objectValue: JSONObject? {
        guard case .object(let object) = self else { return nil }
        return object
    }

    /// The members in the order they were written, when this is an object.
    public var objectMembers: [(key: String, value: JSONValue)]? {
        objectValue?.members
    }

    /// The elements, when this is an array.
    public var arrayElements: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    public var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    public var boolValue: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }

    /// The number's literal text, when this is a number.
    public var numberLiteral: String? {
        guard case .number(let text) = self else { return nil }
        return text
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    // MARK: Canonical form

    /// A deterministic serialization: no whitespace, object members sorted by the UTF-8 bytes of
    /// their keys (byte order, not `String <`, which normalizes and is not what other languages do),
    /// strings escaped minimally (`\"`, `\\`, and U+0000–U+001F as `\b \f \n \r \t` or `\u00xx`
    /// lowercase; everything else, `/` and U+007F included, as raw UTF-8) and numbers as their
    /// literal text. Equal values give equal bytes and different values different bytes, so the
    /// result can be hashed to identify a request body.
    public func canonicalData() -> [UInt8] {
        var output: [UInt8] = []
        appendCanonical(to: &output)
        return output
    }

    private func appendCanonical(to output: inout [UInt8]) {
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let bool):
            output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let text):
            output.append(contentsOf: text.utf8)
        case .string(let string):
            Self.appendCanonical(string: string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.appendCanonical(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.membersInCanonicalOrder.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.appendCanonical(string: member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.appendCanonical(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func appendCanonical(string: String, to output: inout [UInt8]) {
        JSONStringEscaper.append(string, to: &output)
    }

    // MARK: Equality that matches the canonical form

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.number(let left), .number(let right)): left.utf8.elementsEqual(right.utf8)
        case (.string(let left), .string(let right)): left.utf8.elementsEqual(right.utf8)
        case (.array(let left), .array(let right)): left == right
        case (.object(let left), .object(let right)): left == right
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let bool):
            hasher.combine(1)
            hasher.combine(bool)
        case .number(let text):
            hasher.combine(2)
            JSONObject.hashExactly(text, into: &hasher)
        case .string(let string):
            hasher.combine(3)
            JSONObject.hashExactly(string, into: &hasher)
        case .array(let elements):
            hasher.combine(4)
            hasher.combine(elements)
        case .object(let object):
            hasher.combine(5)
            hasher.combine(object)
        }
    }
}

// Literals make values easy to write in tests and callers; a dictionary literal with the same key
// twice traps, as `Dictionary`'s does.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(uniqueMembers: elements.map { (key: $0.0, value: $0.1) }))
    }
}
