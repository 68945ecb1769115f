import Foundation
import ProvisioCore

/// Every JSON body from outside goes through the strict parser first: duplicate keys (at any
/// depth), bad UTF-8, over-deep nesting, unknown fields in nested objects and control
/// characters in any text are refused before a decoder can pick one of two values. Error
/// messages name only fields the endpoint declares, never what the caller invented.
enum RequestJSON {
    static func parse(_ bytes: Data) throws -> JSONValue {
        do {
            return try StrictJSONParser.parse(bytes)
        } catch {
            throw error.provisioError
        }
    }

    /// The canonical bytes of a JSON body (sorted keys, no whitespace), or nil when it is not
    /// strict JSON (an idempotency digest then covers the raw bytes).
    static func canonical(_ bytes: Data) -> Data? {
        guard let value = try? StrictJSONParser.parse(bytes) else { return nil }
        return Data(value.canonicalData())
    }

    /// Checks a body's fields against what the endpoint declares: top-level `fields`, and for
    /// each nested object the keys `nested` lists for it. Then no text anywhere may carry a
    /// control character (C0, DEL, C1): nothing in this API is multi-line, and such characters
    /// hide data in logs and consoles.
    static func checkShape(_ object: JSONObject, fields: Set<String>, nested: [String: Set<String>]) throws {
        if !object.unknownKeys(allowed: fields).isEmpty {
            throw ProvisioError(.unknownField, "The request body has a field this endpoint does not accept.")
        }
        for (key, allowed) in nested {
            let children: [JSONObject]
            switch object[key] {
            case .object(let child)?: children = [child]
            case .array(let elements)?: children = elements.compactMap(\.objectValue)
            default: children = []
            }
            for child in children where !child.unknownKeys(allowed: allowed).isEmpty {
                throw ProvisioError(.unknownField, "The object '\(key)' has a field this endpoint does not accept.")
            }
        }
        try checkText(object, fieldsAreDeclared: true)
    }

    /// No text anywhere may carry a control character, and no value may be null (an optional
    /// field is left out instead). Messages name the field only when the caller's keys have
    /// already been checked against the declared ones (`fieldsAreDeclared`).
    static func checkText(_ object: JSONObject, fieldsAreDeclared: Bool) throws {
        for member in object.members where containsControlCharacter(member.value) {
            throw ProvisioError(
                .invalidRequest,
                fieldsAreDeclared
                    ? "The field '\(member.key)' contains a control character."
                    : "A text in the request body contains a control character.")
        }
        // An optional field is left out, never null: null is not a string, number or object.
        for member in object.members where containsNull(member.value) {
            throw ProvisioError(
                .invalidRequest,
                fieldsAreDeclared
                    ? "The field '\(member.key)' must not be null; leave it out instead."
                    : "A value in the request body is null; leave an optional field out instead.")
        }
    }

    static func containsNull(_ value: JSONValue) -> Bool {
        switch value {
        case .null: true
        case .array(let elements): elements.contains(where: containsNull)
        case .object(let object): object.members.contains { containsNull($0.value) }
        default: false
        }
    }

    static func containsControlCharacter(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text):
            return text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        case .array(let elements):
            return elements.contains(where: containsControlCharacter)
        case .object(let object):
            return object.members.contains { containsControlCharacter(.string($0.key)) || containsControlCharacter($0.value) }
        default:
            return false
        }
    }
}
