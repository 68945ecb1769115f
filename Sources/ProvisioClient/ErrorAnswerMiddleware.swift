import Foundation
import HTTPTypes
import OpenAPIRuntime
import ProvisioCore

/// Turns every answer outside 2xx into a `ProvisioClientError` before the generated code reads
/// it: the server's `{"error": {...}}` body keeps its code (also one this SDK does not know yet, from
/// a newer server), message and request id; anything else (a redirect, a proxy's page) is
/// `client_response_invalid` with the status. Error bodies are small; reading more than
/// `maximumErrorBody` bytes is refused.
public struct ErrorAnswerMiddleware: ClientMiddleware {
    static let maximumErrorBody = 64 * 1024

    public init() {}

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.kind != .successful else { return (response, responseBody) }
        let status = Int(response.status.code)
        var bytes: [UInt8] = []
        if let responseBody {
            bytes = (try? await [UInt8](collecting: responseBody, upTo: Self.maximumErrorBody)) ?? []
        }
        guard let answer = try? JSONDecoder().decode(ServerErrorAnswer.self, from: Data(bytes)), !answer.error.code.isEmpty
        else {
            throw ProvisioClientError(
                .clientResponseInvalid, "Provisio answered HTTP \(status) without an error body this SDK knows.",
                httpStatus: status, requestID: response.headerFields[HTTPField.Name("X-Request-Id")!])
        }
        throw ProvisioClientError(
            ProvisioError.Code(received: answer.error.code), answer.error.message, httpStatus: status,
            requestID: answer.error.requestID ?? response.headerFields[HTTPField.Name("X-Request-Id")!])
    }
}
