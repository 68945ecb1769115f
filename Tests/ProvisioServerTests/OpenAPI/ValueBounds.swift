import Foundation

/// The part of the document's JSON Schema that decoding into the generated types does not
/// check: `minLength`, `maxLength` (in code points, as JSON Schema counts), `minimum`, `maximum`,
/// `format` (`date-time` in the document's own convention, UTC with whole seconds, and `uri`),
/// and `null` where the schema does not allow it (the generated decoder reads `null` for an
/// optional field as absent; the document says an optional field is left out, never `null`).
/// Types, required properties, enums and closed objects are the generated decoder's job; this
/// only walks an instance along its schema (`$ref`, `properties`, `items`) for the rest.
/// `OpenAPIDocumentTests` holds the document to the keywords one of the two checks.
struct ValueBounds: Sendable {
    /// Keywords this check enforces.
    static let checkedKeywords: Set<String> = [
        "minLength", "maxLength", "minimum", "maximum", "format", "minItems", "maxItems", "uniqueItems",
    ]
    /// Keywords the generated types enforce when they decode.
    static let decodedKeywords: Set<String> = [
        "$ref", "type", "properties", "required", "additionalProperties", "items", "enum",
    ]
    /// Keywords that assert nothing.
    static let annotationKeywords: Set<String> = [
        "description", "title", "example", "examples", "default", "deprecated", "readOnly", "writeOnly",
    ]
    /// `binary` only describes a body that is not JSON (card art), which no JSON check reads.
    static let formats: Set<String> = ["date-time", "uri", "binary"]
    static let refPrefix = "#/components/schemas/"

    /// `components.schemas` of the document.
    let schemas: [String: OpenAPIJSON]

    /// Every place where `instance` breaks a bound of `schema`, as `$.path: reason`.
    func mismatches(_ instance: OpenAPIJSON, _ schema: OpenAPIJSON, at path: String = "$") -> [String] {
        guard let keywords = schema.objectValue else { return [] }
        var found: [String] = []
        if let ref = keywords["$ref"]?.stringValue, ref.hasPrefix(Self.refPrefix),
            let target = schemas[String(ref.dropFirst(Self.refPrefix.count))]
        {
            found += mismatches(instance, target, at: path)
        }
        switch instance {
        case .string(let text):
            found += stringMismatches(text, keywords).map { "\(path): \"\(text)\" \($0)" }
        case .integer, .number:
            let value = instance.numericValue ?? 0
            if let minimum = keywords["minimum"]?.numericValue, value < minimum {
                found.append("\(path): \(instance) is less than \(minimum)")
            }
            if let maximum = keywords["maximum"]?.numericValue, value > maximum {
                found.append("\(path): \(instance) is greater than \(maximum)")
            }
        case .object(let object):
            let properties = keywords["properties"]?.objectValue ?? [:]
            for name in object.keys.sorted() {
                if let property = properties[name], let value = object[name] {
                    found += mismatches(value, property, at: "\(path).\(name)")
                }
            }
        case .array(let elements):
            if let minimum = keywords["minItems"]?.numericValue, Double(elements.count) < minimum {
                found.append("\(path): \(elements.count) items, fewer than \(Int(minimum))")
            }
            if let maximum = keywords["maxItems"]?.numericValue, Double(elements.count) > maximum {
                found.append("\(path): \(elements.count) items, more than \(Int(maximum))")
            }
            if keywords["uniqueItems"]?.boolValue == true, Set(elements.map { "\($0)" }).count != elements.count {
                found.append("\(path): an item is repeated")
            }
            if let items = keywords["items"] {
                for (index, element) in elements.enumerated() {
                    found += mismatches(element, items, at: "\(path)[\(index)]")
                }
            }
        case .null:
            let types = keywords["type"].map { $0.arrayValue ?? [$0] }?.compactMap(\.stringValue) ?? []
            if keywords["$ref"] == nil, !types.contains("null") {
                found.append("\(path): null where the document allows none")
            }
        case .bool:
            break
        }
        return found
    }

    private func stringMismatches(_ text: String, _ keywords: [String: OpenAPIJSON]) -> [String] {
        var found: [String] = []
        let length = text.unicodeScalars.count
        if let minimum = keywords["minLength"]?.numericValue, Double(length) < minimum {
            found.append("is shorter than \(Int(minimum)) characters")
        }
        if let maximum = keywords["maxLength"]?.numericValue, Double(length) > maximum {
            found.append("is longer than \(Int(maximum)) characters")
        }
        switch keywords["format"]?.stringValue {
        case "date-time" where (try? StrictTimestamp().decode(text)) == nil:
            found.append("is not a UTC date-time with whole seconds")
        case "uri" where !Self.isAbsoluteURI(text):
            found.append("is not an absolute URI")
        default:
            break
        }
        return found
    }

    /// A scheme and something after it.
    static func isAbsoluteURI(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else { return false }
        return text.count > scheme.count + 1
    }
}
