import Foundation
import HTTPTypes
import OpenAPIRuntime
import ProvisioCore
import ProvisioJSON

/// What every generated client of the wire puts around each call: the caller's key as
/// `Authorization: Bearer` and its name as `User-Agent` on the way out; on the way back, every
/// answer read within a bound and held to the wire before the generated code sees it. An answer
/// outside 2xx becomes `WireAnswer.refused` with the service's error object when it sent one; a
/// JSON answer must be strict JSON (a key given twice is not the service's: decoders disagree on
/// which one wins); anything larger than `maximumAnswerBytes` is not the service's either. The
/// generated types then refuse any field the document does not declare.
public struct WireClientMiddleware: ClientMiddleware {
    /// Error objects are small; a refusal's body is read this far at most.
    static let maximumErrorBytes = 64 * 1024

    let key: String
    let userAgent: String
    let maximumAnswerBytes: Int

    public init(key: String, userAgent: String, maximumAnswerBytes: Int) {
        self.key = key
        self.userAgent = userAgent
        self.maximumAnswerBytes = maximumAnswerBytes
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var signed = request
        signed.headerFields[.authorization] = "Bearer \(key)"
        signed.headerFields[.userAgent] = userAgent
        let (response, answer) = try await next(signed, body, baseURL)
        guard response.status.kind == .successful else {
            var error: WireError.Body?
            if let answer, let bytes = try? await [UInt8](collecting: answer, upTo: Self.maximumErrorBytes) {
                error = WireError.decode(from: bytes)
            }
            throw WireAnswer.refused(status: response.status.code, error: error)
        }
        // 204 has no body by definition (RFC 9110 §15.3.5): nothing to hold to the JSON rules.
        guard let answer, response.status != .noContent else { return (response, nil) }
        let bytes: [UInt8]
        do {
            bytes = try await [UInt8](collecting: answer, upTo: maximumAnswerBytes)
        } catch {
            throw WireAnswer.malformed
        }
        // JSON unless it says otherwise (a transport may hand over no headers at all).
        let contentType = response.headerFields[.contentType]?.lowercased() ?? "application/json"
        if contentType.hasPrefix("application/json"), (try? StrictJSONParser.parse(bytes)) == nil {
            throw WireAnswer.malformed
        }
        return (response, HTTPBody(bytes))
    }
}
