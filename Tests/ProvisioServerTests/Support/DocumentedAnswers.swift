import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// Holds every answer a generated client receives to its document (`contract`) and
/// records an issue in the running test for each departure, so no test can take an answer the
/// document does not describe; and notes every answer in `log`.
struct DocumentedAnswers: ClientMiddleware {
    /// Provisio's document, or the sandbox's for its generated client.
    var contract: AnswerContract = .provisio
    let log: ServedAnswers?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, answerBody) = try await next(request, body, baseURL)
        // Read once here; the generated code gets the same bytes.
        var data = Data()
        if let answerBody { data = try await Data(collecting: answerBody, upTo: 16 << 20) }
        let problems = contract.problems(
            operationID: operationID, status: response.status.code, headers: response.headerFields, body: data)
        for problem in problems {
            Issue.record("\(operationID) \(request.method) \(request.path ?? "") → \(response.status.code): \(problem)")
        }
        log?.record(operationID: operationID, status: response.status.code, headers: response.headerFields, body: data)
        return (response, answerBody == nil ? nil : HTTPBody(data))
    }
}
