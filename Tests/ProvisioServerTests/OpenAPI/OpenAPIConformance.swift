import Foundation
import Testing

/// Checks real responses (and the requests that produced them) against the document, and
/// remembers which operation and status pairs were checked.
///
/// Only SandboxNetwork/ still uses this (for the sandbox's own document); Provisio's answers are
/// decoded into the generated types and held to `AnswerContract`. Remove it, with
/// `OpenAPISchemaValidator`, once the sandbox tests read their answers as generated types.
struct OpenAPIConformance: Sendable {
    let spec: OpenAPISpec
    /// `"POST /v1/cards 201"` for every response checked.
    private(set) var checked: Set<String> = []

    init(spec: OpenAPISpec) {
        self.spec = spec
    }

    /// The operations (`"GET /v1/cards"`) for which a 2xx response was checked.
    var operationsWithSuccess: Set<String> {
        Set(
            checked.compactMap { entry in
                let parts = entry.split(separator: " ")
                guard parts.count == 3, parts[2].hasPrefix("2") else { return nil }
                return "\(parts[0]) \(parts[1])"
            })
    }

    /// The statuses of all error responses checked.
    var errorStatuses: Set<Int> {
        Set(checked.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.filter { $0 >= 400 })
    }

    /// Records an issue for every way `response` departs from the document; returns the parsed
    /// body for further checks.
    @discardableResult
    mutating func check(
        _ response: APIClient.Response, _ method: String, _ path: String, request: Any? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> OpenAPIJSON? {
        let (problems, body) = problems(response, method, path, request: request)
        for problem in problems {
            Issue.record("\(method) \(path) → \(response.status): \(problem)", sourceLocation: sourceLocation)
        }
        return body
    }

    /// Every way the response departs from the document (empty when it conforms).
    mutating func problems(_ response: APIClient.Response, _ method: String, _ path: String, request: Any? = nil)
        -> (problems: [String], body: OpenAPIJSON?)
    {
        do {
            return try evaluate(response, method, path, request: request)
        } catch {
            return (["the document cannot be used: \(error)"], nil)
        }
    }

    private mutating func evaluate(_ response: APIClient.Response, _ method: String, _ path: String, request: Any?) throws
        -> (problems: [String], body: OpenAPIJSON?)
    {
        guard let operation = spec.operation(method, path) else {
            return (["no operation in the document matches \(method) \(path)"], nil)
        }
        var problems: [String] = []
        if let request {
            problems += try requestProblems(request, operation)
        }
        guard let documented = try spec.response(of: operation, status: response.status) else {
            return (problems + ["status \(response.status) is not documented for \(operation.key)"], nil)
        }
        checked.insert("\(operation.key) \(response.status)")

        // Headers: every required one is sent; every one sent that the document names matches its schema;
        // the replay marker appears only where it is documented.
        let headers = try spec.headers(of: documented)
        for (name, header) in headers.sorted(by: { $0.key < $1.key }) {
            guard let value = response.header(name) else {
                if header["required"]?.boolValue == true { problems.append("the required header \(name) is missing") }
                continue
            }
            if let schema = header["schema"], let mismatch = try spec.validator.firstMismatch(.string(value), schema, name) {
                problems.append("header \(mismatch)")
            }
        }
        if response.header("Idempotent-Replayed") != nil, headers["Idempotent-Replayed"] == nil {
            problems.append("Idempotent-Replayed is sent but not documented for this response")
        }

        // Body: the media type is documented and the body matches its schema.
        let mediaType =
            (response.header("Content-Type") ?? "").split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let content = documented["content"]?.objectValue else {
            return (problems + (response.body.isEmpty ? [] : ["a body is sent but none is documented"]), nil)
        }
        guard let schema = content[mediaType]?["schema"] else {
            return (problems + ["the content type '\(mediaType)' is not documented (\(content.keys.sorted()))"], nil)
        }
        let body: OpenAPIJSON
        if mediaType == "application/json" {
            do {
                body = try OpenAPIJSON.parse(response.body)
            } catch {
                return (problems + ["the body is not JSON: \(response.text.prefix(200))"], nil)
            }
        } else {
            body = .string(response.text)
        }
        if let mismatch = try spec.validator.firstMismatch(body, schema) {
            problems.append("body \(mismatch)")
        }

        // Errors: the code is one this response lists.
        if response.status >= 400, let codes = documented["x-error-codes"]?.arrayValue {
            let code = body["error"]?["code"]?.stringValue ?? "(none)"
            if !codes.contains(.string(code)) {
                problems.append("error code \(code) is not among x-error-codes \(codes.compactMap(\.stringValue))")
            }
        }
        return (problems, body)
    }

    private func requestProblems(_ request: Any, _ operation: OpenAPISpec.Operation) throws -> [String] {
        guard let schema = try spec.requestSchema(of: operation) else {
            return ["a request body was sent but \(operation.key) documents none"]
        }
        let json = try OpenAPIJSON.parse(try JSONSerialization.data(withJSONObject: request))
        if let mismatch = try spec.validator.firstMismatch(json, schema) {
            return ["request body \(mismatch)"]
        }
        return []
    }
}
