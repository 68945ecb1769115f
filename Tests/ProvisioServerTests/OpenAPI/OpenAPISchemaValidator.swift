import Foundation

/// A JSON Schema validator for exactly the subset of JSON Schema 2020-12 that `openapi.yaml`
/// uses: `type` (a name or a list of names), `properties`, `required`,
/// `additionalProperties: false`, `items`, `enum`, `$ref` to `#/components/schemas/…`,
/// `format` (`date-time` and `uri`, checked loosely), `minLength`, `maxLength`, `minimum` and
/// `maximum`. Annotations (`description`, `example`, `default`, …) are ignored.
///
/// Any other keyword is a `SchemaError`, not a silent pass: a schema this validator does not
/// understand cannot be reported as matching.
///
/// Used only through `OpenAPIConformance` by SandboxNetwork/; see there.
struct OpenAPISchemaValidator: Sendable {
    /// The first place where an instance does not match, as a JSON path (`$.data[0].last4`).
    struct Mismatch: Error, Equatable, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// The schema itself is outside the supported subset or a `$ref` does not resolve.
    struct SchemaError: Error, CustomStringConvertible {
        let description: String
    }

    static let assertionKeywords: Set<String> = [
        "$ref", "type", "properties", "required", "additionalProperties", "items", "enum", "format", "minLength",
        "maxLength", "minimum", "maximum",
    ]
    static let annotationKeywords: Set<String> = [
        "description", "title", "example", "examples", "default", "deprecated", "readOnly", "writeOnly",
    ]
    static let typeNames: Set<String> = ["null", "boolean", "integer", "number", "string", "array", "object"]
    static let formats: Set<String> = ["date-time", "uri"]
    static let refPrefix = "#/components/schemas/"

    /// `components.schemas` of the document.
    let schemas: [String: OpenAPIJSON]

    init(schemas: [String: OpenAPIJSON]) {
        self.schemas = schemas
    }

    /// The named component schema.
    func schema(named name: String) throws -> OpenAPIJSON {
        guard let schema = schemas[name] else { throw SchemaError(description: "no schema named \(name)") }
        return schema
    }

    /// Throws the first `Mismatch`, or a `SchemaError` for a schema outside the subset.
    func validate(_ instance: OpenAPIJSON, against schema: OpenAPIJSON, at path: String = "$") throws {
        if let mismatch = try firstMismatch(instance, schema, path) { throw mismatch }
    }

    /// The first mismatch, or nil when the instance matches.
    func firstMismatch(_ instance: OpenAPIJSON, _ schema: OpenAPIJSON, _ path: String = "$") throws -> Mismatch? {
        if case .bool(let accepts) = schema {
            return accepts ? nil : Mismatch(path: path, reason: "no value is allowed here")
        }
        guard let keywords = schema.objectValue else {
            throw SchemaError(description: "\(path): a schema must be an object or a boolean, not \(schema)")
        }
        try Self.checkKeywords(keywords, at: path)

        if let ref = keywords["$ref"] {
            if let mismatch = try firstMismatch(instance, try resolve(ref, at: path), path) { return mismatch }
        }
        if let type = keywords["type"] {
            let allowed = try Self.typeNames(type, at: path)
            if instance.schemaTypes.isDisjoint(with: allowed) {
                return Mismatch(
                    path: path,
                    reason: "expected \(allowed.sorted().joined(separator: " or ")), found \(Self.describeType(instance))")
            }
        }
        if let options = keywords["enum"] {
            guard let values = options.arrayValue else { throw SchemaError(description: "\(path): enum must be an array") }
            if !values.contains(where: { $0.isSameValue(as: instance) }) {
                return Mismatch(
                    path: path, reason: "\(instance) is not one of \(values.map(\.description).joined(separator: ", "))")
            }
        }
        if let mismatch = try stringMismatch(instance, keywords, path) { return mismatch }
        if let mismatch = try numberMismatch(instance, keywords, path) { return mismatch }
        if let mismatch = try objectMismatch(instance, keywords, path) { return mismatch }
        if let mismatch = try arrayMismatch(instance, keywords, path) { return mismatch }
        return nil
    }

    // MARK: Keyword groups

    private func stringMismatch(_ instance: OpenAPIJSON, _ keywords: [String: OpenAPIJSON], _ path: String) throws -> Mismatch? {
        let minimum = try Self.integer(keywords["minLength"], "minLength", at: path)
        let maximum = try Self.integer(keywords["maxLength"], "maxLength", at: path)
        var format: String?
        if let value = keywords["format"] {
            guard let name = value.stringValue, Self.formats.contains(name) else {
                throw SchemaError(description: "\(path): the format \(value) is outside the supported subset")
            }
            format = name
        }
        guard case .string(let string) = instance else { return nil }
        // JSON Schema counts characters as Unicode code points.
        let length = string.unicodeScalars.count
        if let minimum, length < minimum {
            return Mismatch(path: path, reason: "\(instance) is shorter than \(minimum) characters")
        }
        if let maximum, length > maximum {
            return Mismatch(path: path, reason: "\(instance) is longer than \(maximum) characters")
        }
        switch format ?? "" {
        case "date-time" where !Self.looksLikeDateTime(string):
            return Mismatch(path: path, reason: "\(instance) is not an RFC 3339 date-time")
        case "uri" where !Self.looksLikeURI(string):
            return Mismatch(path: path, reason: "\(instance) is not an absolute URI")
        default:
            return nil
        }
    }

    private func numberMismatch(_ instance: OpenAPIJSON, _ keywords: [String: OpenAPIJSON], _ path: String) throws -> Mismatch? {
        let minimum = try Self.number(keywords["minimum"], "minimum", at: path)
        let maximum = try Self.number(keywords["maximum"], "maximum", at: path)
        guard let value = instance.numericValue else { return nil }
        if let minimum, value < minimum { return Mismatch(path: path, reason: "\(instance) is less than \(minimum)") }
        if let maximum, value > maximum { return Mismatch(path: path, reason: "\(instance) is greater than \(maximum)") }
        return nil
    }

    private func objectMismatch(_ instance: OpenAPIJSON, _ keywords: [String: OpenAPIJSON], _ path: String) throws -> Mismatch? {
        var properties: [String: OpenAPIJSON] = [:]
        if let value = keywords["properties"] {
            guard let object = value.objectValue else { throw SchemaError(description: "\(path): properties must be an object") }
            properties = object
        }
        var required: [String] = []
        if let value = keywords["required"] {
            guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count else {
                throw SchemaError(description: "\(path): required must be an array of strings")
            }
            required = names
        }
        var closed = false
        if let value = keywords["additionalProperties"] {
            guard let flag = value.boolValue else {
                throw SchemaError(description: "\(path): only additionalProperties: true or false is supported")
            }
            closed = !flag
        }
        guard case .object(let object) = instance else { return nil }
        for name in required where object[name] == nil {
            return Mismatch(path: Self.append(name, to: path), reason: "the required property is missing")
        }
        for name in object.keys.sorted() {
            let childPath = Self.append(name, to: path)
            if let schema = properties[name] {
                if let mismatch = try firstMismatch(object[name]!, schema, childPath) { return mismatch }
            } else if closed {
                return Mismatch(path: childPath, reason: "the property is not allowed (additionalProperties: false)")
            }
        }
        return nil
    }

    private func arrayMismatch(_ instance: OpenAPIJSON, _ keywords: [String: OpenAPIJSON], _ path: String) throws -> Mismatch? {
        guard let items = keywords["items"], case .array(let elements) = instance else { return nil }
        for (index, element) in elements.enumerated() {
            if let mismatch = try firstMismatch(element, items, "\(path)[\(index)]") { return mismatch }
        }
        return nil
    }

    // MARK: Helpers

    /// Follows a `$ref`; only references to component schemas are part of the subset.
    func resolve(_ ref: OpenAPIJSON, at path: String) throws -> OpenAPIJSON {
        guard let text = ref.stringValue, text.hasPrefix(Self.refPrefix) else {
            throw SchemaError(description: "\(path): $ref \(ref) does not point into \(Self.refPrefix)")
        }
        let name = String(text.dropFirst(Self.refPrefix.count))
        guard let schema = schemas[name] else {
            throw SchemaError(description: "\(path): $ref \(text) does not resolve")
        }
        return schema
    }

    /// Checks, without an instance, that a schema and everything it refers to stays inside the
    /// subset; returns the names of the component schemas it reaches.
    @discardableResult
    func checkSupported(_ schema: OpenAPIJSON, at path: String, visited: Set<String> = []) throws -> Set<String> {
        if case .bool = schema { return visited }
        guard let keywords = schema.objectValue else { throw SchemaError(description: "\(path): not a schema") }
        try Self.checkKeywords(keywords, at: path)
        var reached = visited
        if let ref = keywords["$ref"], let name = ref.stringValue.map({ String($0.dropFirst(Self.refPrefix.count)) }),
            !reached.contains(name)
        {
            reached.insert(name)
            reached = try checkSupported(try resolve(ref, at: path), at: "\(Self.refPrefix)\(name)", visited: reached)
        }
        for (name, property) in keywords["properties"]?.objectValue ?? [:] {
            reached = try checkSupported(property, at: Self.append(name, to: path), visited: reached)
        }
        if let items = keywords["items"] {
            reached = try checkSupported(items, at: "\(path)[]", visited: reached)
        }
        return reached
    }

    /// Every keyword is in the subset and its value has the shape the subset expects.
    static func checkKeywords(_ keywords: [String: OpenAPIJSON], at path: String) throws {
        for key in keywords.keys.sorted() where !assertionKeywords.contains(key) && !annotationKeywords.contains(key) {
            throw SchemaError(description: "\(path): the keyword '\(key)' is outside the supported subset")
        }
        if let ref = keywords["$ref"], ref.stringValue?.hasPrefix(refPrefix) != true {
            throw SchemaError(description: "\(path): $ref \(ref) does not point into \(refPrefix)")
        }
        if let type = keywords["type"] { _ = try typeNames(type, at: path) }
        if let options = keywords["enum"], options.arrayValue?.isEmpty != false {
            throw SchemaError(description: "\(path): enum must be a non-empty array")
        }
        if let format = keywords["format"], !formats.contains(format.stringValue ?? "") {
            throw SchemaError(description: "\(path): the format \(format) is outside the supported subset")
        }
        _ = try integer(keywords["minLength"], "minLength", at: path)
        _ = try integer(keywords["maxLength"], "maxLength", at: path)
        _ = try number(keywords["minimum"], "minimum", at: path)
        _ = try number(keywords["maximum"], "maximum", at: path)
        if let properties = keywords["properties"], properties.objectValue == nil {
            throw SchemaError(description: "\(path): properties must be an object")
        }
        if let required = keywords["required"],
            required.arrayValue.map({ $0.allSatisfy { $0.stringValue != nil } }) != true
        {
            throw SchemaError(description: "\(path): required must be an array of strings")
        }
        if let additional = keywords["additionalProperties"], additional.boolValue == nil {
            throw SchemaError(description: "\(path): only additionalProperties: true or false is supported")
        }
    }

    static func typeNames(_ value: OpenAPIJSON, at path: String) throws -> Set<String> {
        let names: [String]
        switch value {
        case .string(let name): names = [name]
        case .array(let list):
            names = list.compactMap(\.stringValue)
            guard names.count == list.count, !names.isEmpty else {
                throw SchemaError(description: "\(path): type must be a name or a non-empty list of names")
            }
        default:
            throw SchemaError(description: "\(path): type must be a name or a list of names")
        }
        for name in names where !typeNames.contains(name) {
            throw SchemaError(description: "\(path): '\(name)' is not a JSON Schema type")
        }
        return Set(names)
    }

    private static func integer(_ value: OpenAPIJSON?, _ keyword: String, at path: String) throws -> Int? {
        guard let value else { return nil }
        guard case .integer(let int) = value, int >= 0 else {
            throw SchemaError(description: "\(path): \(keyword) must be a non-negative integer")
        }
        return int
    }

    private static func number(_ value: OpenAPIJSON?, _ keyword: String, at path: String) throws -> Double? {
        guard let value else { return nil }
        guard let number = value.numericValue else { throw SchemaError(description: "\(path): \(keyword) must be a number") }
        return number
    }

    static func describeType(_ value: OpenAPIJSON) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    static func append(_ key: String, to path: String) -> String {
        let simple =
            key.first.map { $0.isLetter || $0 == "_" } == true
            && key.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" }
        return simple ? "\(path).\(key)" : "\(path)[\"\(key)\"]"
    }

    /// RFC 3339 `date-time`, checked for shape only: `2026-11-22T04:10:07Z`, optional fraction,
    /// `Z` or a numeric offset.
    static func looksLikeDateTime(_ text: String) -> Bool {
        let pattern = #/\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})/#
        guard text.wholeMatch(of: pattern) != nil else { return false }
        let digits = text.split(whereSeparator: { !$0.isNumber }).prefix(6).compactMap { Int($0) }
        guard digits.count == 6 else { return false }
        return (1...12).contains(digits[1]) && (1...31).contains(digits[2]) && digits[3] < 24 && digits[4] < 60
            && digits[5] < 61
    }

    /// An absolute URI: a scheme and something after it.
    static func looksLikeURI(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else { return false }
        return text.count > scheme.count + 1
    }
}
