import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Reads the issuer's answers within a bound before the generated code decodes them: an MDES
/// answer is a small JSON object, and a listener that streams more is not one.
struct MDESAnswerLimit: ClientMiddleware {
    static let maximumBytes = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, answer) = try await next(request, body, baseURL)
        guard let answer else { return (response, nil) }
        return (response, HTTPBody(try await [UInt8](collecting: answer, upTo: Self.maximumBytes)))
    }
}
