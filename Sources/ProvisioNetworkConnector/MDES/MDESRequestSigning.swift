import Foundation
import HTTPTypes
import OpenAPIRuntime
import ProvisioCore
import ProvisioCrypto
import ProvisioJSON
import ProvisioMDESCustomerServiceAPI

/// What the MDES connector puts around each call of the generated client. On the way out, the
/// OAuth 1.0a signature (RSA-SHA256 and the body hash) over the exact bytes sent, with a fresh
/// nonce and the injected clock's time. On the way back, the answer read within a bound and held
/// to strict JSON; an answer outside 2xx becomes `MDESAnswer.refused` with MDES's reason code
/// when it sent its documented error object.
struct MDESRequestSigning: ClientMiddleware {
    /// Requests are small JSON objects; a larger one is a mistake of ours, not sent.
    static let maximumRequestBytes = 64 * 1024

    let signer: OAuth1Signer
    let clock: any TimeSource
    let makeNonce: @Sendable () -> String
    let maximumAnswerBytes: Int

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var bytes: [UInt8] = []
        if let body { bytes = try await [UInt8](collecting: body, upTo: Self.maximumRequestBytes) }
        // The URL the transport sends to: the base, then the operation's path.
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        let url = base + (request.path ?? "")
        var signed = request
        signed.headerFields[.authorization] = try signer.authorizationHeader(
            method: request.method.rawValue, url: url, body: Data(bytes), nonce: makeNonce(),
            timestamp: Int64(clock.now().timeIntervalSince1970.rounded(.down)))
        signed.headerFields[.userAgent] = "Provisio-MDES-Connector/1"
        signed.headerFields[.accept] = "application/json"
        let (response, answer) = try await next(signed, HTTPBody(bytes), baseURL)

        var received: [UInt8] = []
        do {
            if let answer { received = try await [UInt8](collecting: answer, upTo: maximumAnswerBytes) }
        } catch {
            throw response.status.kind == .successful
                ? MDESAnswer.malformed : MDESAnswer.refused(status: response.status.code, reasonCode: nil, source: nil)
        }
        guard response.status.kind == .successful else {
            let first = Self.errors(in: received)?.errors?.error?.first
            throw MDESAnswer.refused(status: response.status.code, reasonCode: first?.reasonCode, source: first?.source)
        }
        // A key given twice is not MDES's answer: decoders disagree on which one wins.
        guard (try? StrictJSONParser.parse(received)) != nil else { throw MDESAnswer.malformed }
        return (response, HTTPBody(received))
    }

    /// MDES's error object, when the refusal's body is one.
    static func errors(in bytes: [UInt8]) -> Components.Schemas.ErrorsResponse? {
        guard !bytes.isEmpty, (try? StrictJSONParser.parse(bytes)) != nil else { return nil }
        return try? JSONDecoder().decode(Components.Schemas.ErrorsResponse.self, from: Data(bytes))
    }
}
