import Foundation
import ProvisioCore
import ProvisioJSON

/// Every JSON body from outside goes through the strict parser first: duplicate keys (at any
/// depth), bad UTF-8, over-deep nesting, control characters in any text and nulls are refused
/// before a decoder can pick one of two values. Error messages never quote what the caller sent.
public enum RequestJSON {
    public static func parse(_ bytes: Data, dialect: WireDialect, limits: StrictJSONParser.Limits = .default) throws
        -> JSONValue
    {
        do {
            return try StrictJSONParser.parse(bytes, limits: limits)
        } catch {
            throw dialect.bodyRefusal(error.provisioError)
        }
    }

    /// The canonical bytes of a JSON body (sorted keys, no whitespace), or nil when it is not
    /// strict JSON (an idempotency digest then covers the raw bytes).
    public static func canonical(_ bytes: Data) -> Data? {
        guard let value = try? StrictJSONParser.parse(bytes) else { return nil }
        return Data(value.canonicalData())
    }

    /// No text anywhere may carry a control character (C0, DEL, C1: nothing on these wires is
    /// multi-line, and such characters hide data in logs and consoles), and no value may be null
    /// (an optional field is left out instead). The first offending top-level field is named when
    /// its key is shaped like the documents' field names (lowercase words and underscores): such a
    /// key cannot quote a card number or a secret the caller put there. Other messages name none,
    /// the caller's keys not being checked against the declared ones yet.
    /// A field of `dialect.multilineFields` (a text, or a list of texts) may hold line breaks,
    /// and only those.
    public static func checkText(_ object: JSONObject, dialect: WireDialect) throws {
        let offending = object.members.first { member in
            guard dialect.multilineFields.contains(member.key) else { return containsControlCharacter(member.value) }
            return containsControlCharacter(withoutLineBreaks(member.value))
        }
        if let member = offending {
            throw ProvisioError(
                dialect.invalidRequest,
                isPlainFieldName(member.key)
                    ? "The field '\(member.key)' contains a control character."
                    : "A text in the request body contains a control character.")
        }
        if let member = object.members.first(where: { containsNull($0.value) }) {
            throw ProvisioError(
                dialect.invalidRequest,
                isPlainFieldName(member.key)
                    ? "The field '\(member.key)' must not be null; leave it out instead."
                    : "A value in the request body is null; leave an optional field out instead.")
        }
    }

    /// A text, or each text of a list, without its LF and CRLF line breaks.
    static func withoutLineBreaks(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text.replacingOccurrences(of: "\r\n", with: "").filter { $0 != "\n" })
        case .array(let elements): .array(elements.map { if case .string = $0 { withoutLineBreaks($0) } else { $0 } })
        default: value
        }
    }

    public static func isPlainFieldName(_ key: String) -> Bool {
        (1...64).contains(key.utf8.count)
            && key.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") }
    }

    public static func containsNull(_ value: JSONValue) -> Bool {
        switch value {
        case .null: true
        case .array(let elements): elements.contains(where: containsNull)
        case .object(let object): object.members.contains { containsNull($0.value) }
        default: false
        }
    }

    public static func containsControlCharacter(_ value: JSONValue) -> Bool {
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
