import Foundation
import Yams

/// `Sources/ProvisioServer/Resources/openapi.yaml`, parsed, with the look-ups the tests need:
/// operations by method and concrete path, and responses by status with `$ref`s followed. The
/// sandbox's document is read the same way (`init(data:)`).
struct OpenAPISpec: Sendable {
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// An operation of the document: its path template, method (lowercase) and object.
    struct Operation: Sendable {
        let template: String
        let method: String
        let object: OpenAPIJSON

        var key: String { "\(method.uppercased()) \(template)" }
    }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The document's bytes as they are in the source tree (and in the server's bundle).
    let data: Data
    let root: OpenAPIJSON

    static var sourceURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // OpenAPI
            .deletingLastPathComponent()  // ProvisioServerTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
            .appendingPathComponent("Sources/ProvisioServer/Resources/openapi.yaml")
    }

    static func load() throws -> OpenAPISpec {
        try OpenAPISpec(data: try Data(contentsOf: sourceURL))
    }

    init(data: Data) throws {
        guard let text = String(data: data, encoding: .utf8) else { throw LoadError(description: "openapi.yaml is not UTF-8") }
        self.data = data
        self.root = try OpenAPIJSON.fromYAML(try Yams.load(yaml: text))
        guard root["components"]?["schemas"]?.objectValue != nil else {
            throw LoadError(description: "openapi.yaml has no components.schemas")
        }
    }

    var paths: [String: OpenAPIJSON] { root["paths"]?.objectValue ?? [:] }

    /// Every operation, sorted by path and method.
    var operations: [Operation] {
        paths.keys.sorted().flatMap { template in
            Self.methods.compactMap { method in
                paths[template]?[method].map { Operation(template: template, method: method, object: $0) }
            }
        }
    }

    /// The operation a request for `path` (query ignored) with `method` reaches; `{name}`
    /// segments of a template match any one non-empty segment.
    func operation(_ method: String, _ path: String) -> Operation? {
        let concrete = Self.segments(String(path.prefix { $0 != "?" }))
        for template in paths.keys.sorted() {
            let pattern = Self.segments(template)
            guard pattern.count == concrete.count else { continue }
            let matches = zip(pattern, concrete).allSatisfy { part, actual in
                (part.hasPrefix("{") && part.hasSuffix("}") && !actual.isEmpty) || part == actual
            }
            if matches, let object = paths[template]?[method.lowercased()] {
                return Operation(template: template, method: method.lowercased(), object: object)
            }
        }
        return nil
    }

    /// Follows a `$ref` (a local JSON pointer) if the node is a Reference Object.
    func resolved(_ node: OpenAPIJSON) throws -> OpenAPIJSON {
        var current = node
        var seen: Set<String> = []
        while let ref = current["$ref"]?.stringValue {
            guard seen.insert(ref).inserted else { throw LoadError(description: "$ref cycle at \(ref)") }
            current = try pointer(ref)
        }
        return current
    }

    /// The node at a local reference such as `#/components/responses/NotFound`.
    func pointer(_ ref: String) throws -> OpenAPIJSON {
        guard ref.hasPrefix("#/") else { throw LoadError(description: "\(ref) is not a local reference") }
        var node = root
        for token in ref.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard let next = node[key] else { throw LoadError(description: "\(ref) does not resolve (at \(key))") }
            node = next
        }
        return node
    }

    /// The parameters of an operation, path-level ones included, resolved.
    func parameters(of operation: Operation) throws -> [OpenAPIJSON] {
        let pathLevel = paths[operation.template]?["parameters"]?.arrayValue ?? []
        let own = operation.object["parameters"]?.arrayValue ?? []
        return try (pathLevel + own).map(resolved)
    }

    /// The documented response for a status, resolved.
    func response(of operation: Operation, status: Int) throws -> OpenAPIJSON? {
        try operation.object["responses"]?["\(status)"].map(resolved)
    }

    /// The headers a response declares, each resolved.
    func headers(of response: OpenAPIJSON) throws -> [String: OpenAPIJSON] {
        try (response["headers"]?.objectValue ?? [:]).mapValues(resolved)
    }

    /// The schema of the request body for a media type.
    func requestSchema(of operation: Operation, mediaType: String = "application/json") throws -> OpenAPIJSON? {
        guard let body = operation.object["requestBody"] else { return nil }
        return try resolved(body)["content"]?[mediaType]?["schema"]
    }

    static func segments(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    }
}
