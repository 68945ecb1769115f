import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime
import ProvisioCore
import ProvisioHTTP
import ProvisioSandbox

/// What Mastercard's API gateway does in front of the Customer Service API, in the sandbox: reads
/// the body within the limits, verifies the OAuth 1.0a signature and body hash over the exact
/// bytes and URL with the issuer's public key (`SandboxOAuthVerifier`), refuses a nonce seen
/// before, and answers every refusal, its own or the operation's, in MDES's error shape
/// (`{"Errors": {"Error": [{"Source", "ReasonCode", "Description", "Recoverable"}]}}`): `Gateway`
/// for a request that does not authenticate, `INPUT` for one the application refuses.
struct SandboxMDESGatewayMiddleware: RouterMiddleware {
    typealias Context = PlainRequestContext

    let verifier: SandboxOAuthVerifier
    let nonces: OAuthNonceLedger
    let clock: any TimeSource
    let logger: Logger
    /// Tests only (`MDESTrafficObserver`): sees each request as Provisio sent it and the answer.
    var observer: MDESTrafficObserver?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let observer else { return try await gate(request, context: context, next: next) }
        // The body is read here once; the gateway then reads the same bytes again from memory.
        var request = request
        let sent = try await RequestBodyReader.collect(&request, context: context, dialect: .sandbox)
        var response = try await gate(request, context: context, next: next)
        let collector = AnswerCollector()
        try await response.body.write(collector)
        response.body = .init(byteBuffer: collector.buffer)
        let path = request.uri.path
        await observer(
            MDESObservedExchange(
                operation: String(path.split(separator: "/").last ?? ""), path: path, request: Array(sent.readableBytesView),
                status: Int(response.status.code), response: Array(collector.buffer.readableBytesView)))
        return response
    }

    private func gate(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var request = request
        do {
            let body = Data(try await RequestBodyReader.collect(&request, context: context, dialect: .sandbox).readableBytesView)
            let url = "http://\(request.head.authority ?? "")\(request.uri.path)"
            let now = clock.now()
            let verified = try verifier.verify(
                method: request.method.rawValue, url: url, authorization: request.headers[.authorization], body: body,
                now: now)
            guard await nonces.admit(verified, now: now) else {
                throw ProvisioError(.sandboxOauthSignatureInvalid, "This oauth_nonce was used before.")
            }
        } catch let error as ProvisioError where error.code == .sandboxOauthSignatureInvalid {
            logger.notice("MDES gateway refused a request", metadata: ["reason": "\(error.message)"])
            return Self.errors(status: .unauthorized, source: "Gateway", reasonCode: "AUTHENTICATION_FAILED", error.message)
        } catch let error as ProvisioError {
            return Self.errors(
                status: .badRequest, source: "INPUT", reasonCode: "INVALID_REQUEST", error.message)
        }
        do {
            return try await next(request, context)
        } catch {
            // The generated code wraps a handler's error; anything else is its decoder refusing
            // the body (a missing, mistyped or unknown-valued field).
            guard let refusal = (error as? ProvisioError) ?? ((error as? ServerError)?.underlyingError as? ProvisioError)
            else {
                return Self.errors(
                    status: .badRequest, source: "INPUT", reasonCode: "INVALID_FIELD_VALUE",
                    "The body is not the documented JSON (a field is missing or has a value the document does not list).")
            }
            let (status, reason) = Self.refusal(refusal.code)
            return Self.errors(status: status, source: "INPUT", reasonCode: reason, refusal.message)
        }
    }

    /// The sandbox network's refusals in MDES's words (the sandbox's reading: Mastercard's page
    /// lists reason codes per operation, not this mapping).
    static func refusal(_ code: ProvisioError.Code) -> (HTTPResponse.Status, String) {
        switch code {
        case .sandboxNetworkTokenUnknown: (.badRequest, "INVALID_TOKEN_UNIQUE_REFERENCE")
        case .sandboxNetworkTokenStateInvalid: (.badRequest, "INVALID_TOKEN_STATUS")
        case .sandboxMdesRequestInvalid: (.badRequest, "INVALID_REQUEST")
        // `EncryptedAccountInformation` that Mastercard's key does not open: one code for every
        // cause, as the Issuer Outbound document's `CRYPTOGRAPHY_ERROR` (no oracle).
        case .mdesPayloadMalformed, .mdesKeyUnknown, .mdesPayloadUndecryptable: (.badRequest, "CRYPTOGRAPHY_ERROR")
        default: (.internalServerError, "SYSTEM_ERROR")
        }
    }

    static func errors(status: HTTPResponse.Status, source: String, reasonCode: String, _ description: String) -> Response {
        let error: [String: Any] = [
            "Source": source, "ReasonCode": reasonCode, "Description": description, "Recoverable": false,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: ["Errors": ["Error": [error]]], options: [.sortedKeys])) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Collects an answer for the observer.
///
/// `@unchecked Sendable`: written only by the one `ResponseBody.write` call that owns it and read
/// after that call returns.
private final class AnswerCollector: ResponseBodyWriter, @unchecked Sendable {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var copy = buffer
        self.buffer.writeBuffer(&copy)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
