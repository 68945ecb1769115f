import Foundation
import HTTPTypes
import ProvisioAPI

/// What the document promises about an answer beyond what the generated client's decoding
/// shows: the status is documented for the operation, the documented headers are sent (and the
/// replay marker only where documented), the content type is a documented one, every value keeps
/// its bounds (`ValueBounds`), and an error is the `Error` schema with one of the codes its
/// response lists in `x-error-codes` and the request id of `X-Request-Id`.
///
/// One contract per document: Provisio's (`provisio`) and the sandbox's (`sandbox`), each with
/// its own generated `Error` type to read error bodies.
struct AnswerContract: Sendable {
    /// The code and request id of an error body, read as the document's generated `Error` type;
    /// nil when the body is not that schema.
    typealias ErrorReader = @Sendable (Data) -> (code: String, requestID: String)?

    /// `Sources/ProvisioServer/Resources/openapi.yaml`, parsed once for the run.
    static let provisio: AnswerContract = {
        do {
            return AnswerContract(spec: try OpenAPISpec.load()) { body in
                (try? APIJSON.decode(Components.Schemas._Error.self, from: body).error).map {
                    ($0.code.rawValue, $0.requestId)
                }
            }
        } catch {
            fatalError("openapi.yaml cannot be read: \(error)")
        }
    }()

    let spec: OpenAPISpec
    let bounds: ValueBounds
    let readError: ErrorReader

    init(spec: OpenAPISpec, readError: @escaping ErrorReader) {
        self.spec = spec
        self.bounds = ValueBounds(schemas: spec.root["components"]?["schemas"]?.objectValue ?? [:])
        self.readError = readError
    }

    /// The operation with this `operationId`.
    func operation(id: String) -> OpenAPISpec.Operation? {
        spec.operations.first { $0.object["operationId"]?.stringValue == id }
    }

    /// Every way an answer to `operationID` departs from the document (empty when it keeps it).
    func problems(operationID: String, status: Int, headers: HTTPFields, body: Data) -> [String] {
        guard let operation = operation(id: operationID) else { return ["the document has no operation \(operationID)"] }
        return problems(operation, status: status, headers: headers, body: body)
    }

    /// The same for an answer to a raw request, found by method and concrete path.
    func problems(method: String, path: String, status: Int, headers: HTTPFields, body: Data) -> [String] {
        guard let operation = spec.operation(method, path) else {
            return ["no operation of the document matches \(method) \(path)"]
        }
        return problems(operation, status: status, headers: headers, body: body)
    }

    private func problems(_ operation: OpenAPISpec.Operation, status: Int, headers: HTTPFields, body: Data) -> [String] {
        do {
            guard let documented = try spec.response(of: operation, status: status) else {
                return ["status \(status) is not documented for \(operation.key)"]
            }
            return try headerProblems(documented, headers) + bodyProblems(documented, status: status, headers, body)
        } catch {
            return ["the document cannot be used: \(error)"]
        }
    }

    private func headerProblems(_ documented: OpenAPIJSON, _ headers: HTTPFields) throws -> [String] {
        var problems: [String] = []
        let declared = try spec.headers(of: documented)
        for (name, header) in declared.sorted(by: { $0.key < $1.key }) {
            guard let value = HTTPField.Name(name).flatMap({ headers[$0] }) else {
                if header["required"]?.boolValue == true { problems.append("the required header \(name) is missing") }
                continue
            }
            if let options = header["schema"]?["enum"]?.arrayValue?.compactMap(\.stringValue), !options.contains(value) {
                problems.append("the header \(name): \(value) is not one of \(options)")
            }
        }
        if headers[HTTPField.Name("Idempotent-Replayed")!] != nil, declared["Idempotent-Replayed"] == nil {
            problems.append("Idempotent-Replayed is sent but not documented for this response")
        }
        return problems
    }

    private func bodyProblems(_ documented: OpenAPIJSON, status: Int, _ headers: HTTPFields, _ body: Data) throws
        -> [String]
    {
        guard let content = documented["content"]?.objectValue else {
            return body.isEmpty ? [] : ["a body is sent but none is documented"]
        }
        let mediaType =
            (headers[.contentType] ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        guard let schema = content[mediaType]?["schema"] else {
            return ["the content type '\(mediaType)' is not documented (\(content.keys.sorted()))"]
        }
        guard mediaType == "application/json" else { return [] }
        guard let json = try? OpenAPIJSON.parse(body) else {
            return ["the body is not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))"]
        }
        var problems = bounds.mismatches(json, schema).map { "body \($0)" }
        guard status >= 400 else { return problems }
        guard let error = readError(body) else {
            return problems + ["the error body is not the Error schema: \(String(decoding: body.prefix(300), as: UTF8.self))"]
        }
        let codes = documented["x-error-codes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if !codes.contains(error.code) {
            problems.append("the error code \(error.code) is not among this response's x-error-codes \(codes)")
        }
        if headers[HTTPField.Name("X-Request-Id")!] != error.requestID {
            problems.append("error.request_id \(error.requestID) is not the X-Request-Id header")
        }
        return problems
    }
}
