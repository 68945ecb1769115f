import Foundation
import ProvisioCore

/// Every JSON body from outside goes through the strict parser first: duplicate keys (at any
/// depth), bad UTF-8, over-deep nesting, control characters in any text and nulls are refused
/// before a decoder can pick one of two values. Error messages never quote what the caller sent.
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

    /// No text anywhere may carry a control character (C0, DEL, C1: nothing in this API is
    /// multi-line, and such characters hide data in logs and consoles), and no value may be null
    /// (an optional field is left out instead). The messages name no field: the caller's keys
    /// have not been checked against the declared ones yet.
    static func checkText(_ object: JSONObject) throws {
        if object.members.contains(where: { containsControlCharacter($0.value) }) {
            throw ProvisioError(.invalidRequest, "A text in the request body contains a control character.")
        }
        if object.members.contains(where: { containsNull($0.value) }) {
            throw ProvisioError(
                .invalidRequest, "A value in the request body is null; leave an optional field out instead.")
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
