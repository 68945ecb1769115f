import Foundation

/// A JSON value, used both for the OpenAPI document (after YAML parsing) and for the bodies the
/// server answers, so that schemas and instances are compared as the same kind of thing; and
/// for request bodies the generated types cannot hold (an unknown field, a value of the wrong
/// type), written as literals or as a generated request with one value changed.
///
/// Integers and other numbers are kept apart so that `type: integer` can be checked, and
/// booleans are never numbers (JSONDecoder refuses to read a number as a Bool).
enum OpenAPIJSON: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([OpenAPIJSON])
    case object([String: OpenAPIJSON])

    struct ConversionError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses JSON bytes.
    static func parse(_ data: Data) throws -> OpenAPIJSON {
        try JSONDecoder().decode(OpenAPIJSON.self, from: data)
    }

    /// Converts what `Yams.load(yaml:)` returns. YAML-only values (timestamps, binary, sets)
    /// have no JSON form and are refused, so a document that relies on them is caught.
    static func fromYAML(_ value: Any?, at path: String = "#") throws -> OpenAPIJSON {
        guard let value else { return .null }
        switch value {
        case is NSNull:
            return .null
        case let bool as Bool:
            return .bool(bool)
        case let int as Int:
            return .integer(int)
        case let double as Double:
            return .number(double)
        case let string as String:
            return .string(string)
        case let array as [Any]:
            return .array(try array.enumerated().map { try fromYAML($1, at: "\(path)/\($0)") })
        case let mapping as [AnyHashable: Any]:
            var object: [String: OpenAPIJSON] = [:]
            for (key, element) in mapping {
                guard let name = key.base as? String else {
                    throw ConversionError(description: "\(path): the key \(key.base) is not a string; quote it in the YAML")
                }
                object[name] = try fromYAML(element, at: "\(path)/\(name)")
            }
            return .object(object)
        default:
            throw ConversionError(description: "\(path): \(type(of: value)) has no JSON equivalent; quote the value in the YAML")
        }
    }

    var objectValue: [String: OpenAPIJSON]? {
        if case .object(let object) = self { return object }
        return nil
    }

    var arrayValue: [OpenAPIJSON]? {
        if case .array(let array) = self { return array }
        return nil
    }

    var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The numeric value of an integer or number.
    var numericValue: Double? {
        switch self {
        case .integer(let int): Double(int)
        case .number(let double): double
        default: nil
        }
    }

    subscript(key: String) -> OpenAPIJSON? {
        get { objectValue?[key] }
        set {
            guard case .object(var object) = self else { return }
            object[key] = newValue
            self = .object(object)
        }
    }

    /// A generated request type (or any `Encodable`), as the JSON it encodes to.
    init(encoding value: some Encodable) throws {
        self = try Self.parse(try APIJSON.encode(value))
    }

    /// JSON Schema equality: 1 and 1.0 are the same value; objects compare without key order.
    func isSameValue(as other: OpenAPIJSON) -> Bool {
        switch (self, other) {
        case (.integer, .number), (.number, .integer), (.integer, .integer), (.number, .number):
            return numericValue == other.numericValue
        case (.array(let lhs), .array(let rhs)):
            return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.isSameValue(as: $1) }
        case (.object(let lhs), .object(let rhs)):
            return lhs.count == rhs.count
                && lhs.allSatisfy { key, value in rhs[key].map { value.isSameValue(as: $0) } ?? false }
        default:
            return self == other
        }
    }

    /// The JSON Schema type names this value is an instance of.
    var schemaTypes: Set<String> {
        switch self {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .integer: ["integer", "number"]
        case .number(let double): double.rounded() == double && double.isFinite ? ["integer", "number"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .integer(let int): "\(int)"
        case .number(let double): "\(double)"
        case .string(let string): "\"\(string)\""
        case .array(let array): "[\(array.map(\.description).joined(separator: ", "))]"
        case .object(let object):
            "{\(object.keys.sorted().map { "\"\($0)\": \(object[$0]!.description)" }.joined(separator: ", "))}"
        }
    }
}

extension OpenAPIJSON: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .integer(int)
        } else if let double = try? container.decode(Double.self) {
            self = .number(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([OpenAPIJSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: OpenAPIJSON].self))
        }
    }
}

extension OpenAPIJSON: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let int): try container.encode(int)
        case .number(let double): try container.encode(double)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

extension OpenAPIJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: OpenAPIJSON...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, OpenAPIJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}
