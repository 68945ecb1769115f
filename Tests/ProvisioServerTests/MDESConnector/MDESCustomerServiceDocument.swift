import Foundation
import Yams

/// Provisio's description of MDES's Customer Service API
/// (`Sources/ProvisioNetworkConnector/MDES/mdes-customer-service-openapi.yaml`), read from the
/// source tree, and a check of a request body against the operation's schema: every field
/// declared (what Provisio sends, it must have described), every required one present, enums,
/// lengths and patterns held.
struct MDESCustomerServiceDocument: Sendable {
    let root: OpenAPIJSON

    static let shared: MDESCustomerServiceDocument = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // MDESConnector
            .deletingLastPathComponent()  // ProvisioServerTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
            .appendingPathComponent("Sources/ProvisioNetworkConnector/MDES/mdes-customer-service-openapi.yaml")
        let text = try! String(contentsOf: url, encoding: .utf8)
        return MDESCustomerServiceDocument(root: try! OpenAPIJSON.fromYAML(try Yams.load(yaml: text)))
    }()

    /// What is wrong with `body` as the request of `POST path`; empty when nothing is.
    func problems(post path: String, body: OpenAPIJSON) -> [String] {
        guard let schema = root["paths"]?[path]?["post"]?["requestBody"]?["content"]?["application/json"]?["schema"] else {
            return ["\(path) is not an operation of the document"]
        }
        return problems(body, schema, at: "body")
    }

    private func resolve(_ schema: OpenAPIJSON) -> OpenAPIJSON {
        guard let ref = schema["$ref"]?.stringValue, ref.hasPrefix("#/components/schemas/") else { return schema }
        return resolve(root["components"]?["schemas"]?[String(ref.dropFirst("#/components/schemas/".count))] ?? .null)
    }

    private func problems(_ value: OpenAPIJSON, _ schema: OpenAPIJSON, at path: String) -> [String] {
        let schema = resolve(schema)
        var found: [String] = []
        for part in schema["allOf"]?.arrayValue ?? [] { found += problems(value, part, at: path) }
        if let choices = schema["anyOf"]?.arrayValue, !choices.contains(where: { problems(value, $0, at: path).isEmpty }) {
            found.append("\(path) matches none of anyOf")
        }
        if let values = schema["enum"]?.arrayValue, !values.contains(where: { $0.isSameValue(as: value) }) {
            found.append("\(path) = \(value) is not in its enum")
        }
        switch schema["type"]?.stringValue {
        case "object":
            guard let object = value.objectValue else { return found + ["\(path) is not an object"] }
            let properties = schema["properties"]?.objectValue ?? [:]
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
                found.append("\(path).\(name) is required")
            }
            for (name, field) in object.sorted(by: { $0.key < $1.key }) {
                guard let declared = properties[name] else {
                    found.append("\(path).\(name) is not in the document")
                    continue
                }
                found += problems(field, declared, at: "\(path).\(name)")
            }
        case "string":
            guard let text = value.stringValue else { return found + ["\(path) is not a string"] }
            if let minimum = schema["minLength"]?.numericValue, Double(text.count) < minimum {
                found.append("\(path) is shorter than \(Int(minimum))")
            }
            if let maximum = schema["maxLength"]?.numericValue, Double(text.count) > maximum {
                found.append("\(path) is longer than \(Int(maximum))")
            }
            if let pattern = schema["pattern"]?.stringValue, text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(path) does not match \(pattern)")
            }
        case "array":
            guard let items = value.arrayValue else { return found + ["\(path) is not an array"] }
            for (index, item) in items.enumerated() {
                found += problems(item, schema["items"] ?? .null, at: "\(path)[\(index)]")
            }
        case "boolean":
            if value.boolValue == nil { found.append("\(path) is not a boolean") }
        default:
            break
        }
        return found
    }
}
