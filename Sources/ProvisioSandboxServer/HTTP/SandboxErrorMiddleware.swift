import Foundation
import Hummingbird
import Logging
import ProvisioCore
import ProvisioSandbox

/// Turns every error into `{"error": {"code", "message"}}` with the status its code declares
/// (`ProvisioError.Code.status`). The sandbox's `ProvisioError`s keep their code (a code relayed
/// from Provisio is a received one, so 502); anything else becomes a 500 `sandbox_internal_error`
/// that says nothing about internals and is logged by type only (an error's description could
/// quote input).
struct SandboxErrorMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let mapped = Self.provisioError(for: error, request: request)
            if mapped.code.status.rawValue >= 500 {
                context.logger.error(
                    "sandbox request failed", metadata: ["code": "\(mapped.code)", "error_type": "\(type(of: error))"])
            }
            return Self.response(for: mapped)
        }
    }

    static func provisioError(for error: any Error, request: Request) -> ProvisioError {
        switch error {
        case let error as ProvisioError:
            return error
        // Hummingbird's own refusals: no route (the router throws 404 inside the middleware
        // chain), a body over the limit (NIO's too-many-bytes error is one of these too).
        case let error as any HTTPResponseError:
            switch error.status {
            case .notFound:
                return ProvisioError(.sandboxRouteNotFound, "No route for \(request.method.rawValue) \(request.uri.path).")
            case .contentTooLarge:
                return payloadTooLarge()
            case let status where status.code < 500:
                return ProvisioError(.sandboxInvalidRequest, "The request is not valid (HTTP \(status.code)).")
            default:
                return internalError()
            }
        default:
            return internalError()
        }
    }

    static func payloadTooLarge() -> ProvisioError {
        ProvisioError(.sandboxPayloadTooLarge, "The request body is larger than \(SandboxHTTPService.maximumBodyBytes) bytes.")
    }

    static func internalError() -> ProvisioError {
        ProvisioError(.sandboxInternalError, "The sandbox could not complete the request.")
    }

    static func response(for error: ProvisioError) -> Response {
        let body = (try? SandboxWire.makeEncoder().encode(WireError(error))) ?? Data()
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(
            status: HTTPResponse.Status(code: error.code.status.rawValue), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
