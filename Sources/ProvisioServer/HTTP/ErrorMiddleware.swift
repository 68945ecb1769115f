import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime
import ProvisioCore

/// Turns every error into the wire error shape with a stable code and the request id, answered
/// with the status its code declares (`ProvisioError.Code.status`), and stamps `X-Request-Id`
/// on every response. Unknown errors become a 500 `internal_error` whose message says nothing
/// about internals; they are logged with their type only (an error's description could quote
/// input).
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ProvisioRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let mapped = Self.provisioError(for: error)
            if mapped.code.status.rawValue >= 500 {
                context.logger.error("request failed", metadata: ["code": "\(mapped.code)", "error_type": "\(type(of: error))"])
            }
            response = Self.response(for: mapped, requestID: context.requestID)
        }
        response.headers[.requestID] = context.requestID
        return response
    }

    static func provisioError(for error: any Error) -> ProvisioError {
        switch error {
        case let error as ProvisioError:
            return error
        case let error as ServerError:
            return GeneratedRequestError.provisioError(for: error)
        case is NIOTooManyBytesError:
            return ProvisioError(.payloadTooLarge, "The request body is too large.")
        case let error as HTTPError:
            switch error.status {
            case .notFound: return ProvisioError(.routeNotFound, "No such route.")
            case .methodNotAllowed: return ProvisioError(.methodNotAllowed, "This route does not accept that method.")
            case .contentTooLarge: return ProvisioError(.payloadTooLarge, "The request body is too large.")
            case .unauthorized: return APIError.missingCredentials()
            default:
                if error.status.code < 500 {
                    return ProvisioError(.invalidRequest, "The request is not valid.")
                }
                return ProvisioError(.internalError, "The server could not complete the request.")
            }
        default:
            return ProvisioError(.internalError, "The server could not complete the request.")
        }
    }

    static func response(for error: ProvisioError, requestID: String) -> Response {
        let body = (try? JSONCoding.encoder.encode(WireError(error, requestID: requestID))) ?? Data()
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        // The rest of the body was never read: close rather than read on (ConnectionGuardHandler).
        if error.code == .payloadTooLarge || error.code == .requestTimeout { headers[.connection] = "close" }
        return Response(
            status: HTTPResponse.Status(code: error.code.status.rawValue), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension HTTPField.Name {
    static let requestID = Self("X-Request-Id")!
    static let idempotencyKey = Self("Idempotency-Key")!
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}
