import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIRuntime
import ProvisioCore
import ProvisioJSON

extension WireDialect {
    /// Any error a request ended with, as the wire error it is answered with: a `ProvisioError`
    /// as it is (also inside the generated code's `ServerError`), the generated code's and
    /// Hummingbird's refusals in this dialect, anything else a 500 that says nothing about it.
    public func provisioError(for error: any Error) -> ProvisioError {
        switch error {
        case let error as ProvisioError:
            return error
        case let error as ServerError:
            return GeneratedRequestError.provisioError(for: error, dialect: self)
        case is NIOTooManyBytesError:
            return ProvisioError(payloadTooLarge, "The request body is too large.")
        case let error as any HTTPResponseError:
            switch error.status {
            case .notFound: return ProvisioError(routeNotFound, "No such route.")
            case .methodNotAllowed: return ProvisioError(methodNotAllowed, "This route does not accept that method.")
            case .contentTooLarge: return ProvisioError(payloadTooLarge, "The request body is too large.")
            case .unauthorized: return BearerAuthorization.missing(self)
            case let status where status.kind == .clientError:
                return ProvisioError(invalidRequest, "The request is not valid.")
            default: return internalFailure()
            }
        default:
            return internalFailure()
        }
    }

    /// The answer for a wire error: `{"error": {"code", "message", "request_id"}}` with the status
    /// its code declares.
    public func response(for error: ProvisioError, requestID: String) -> Response {
        let body = Self.errorBody(for: error, requestID: requestID)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if closesUnreadConnections, error.code == payloadTooLarge || error.code == requestTimeout {
            headers[.connection] = "close"
        }
        headers[.requestID] = requestID
        return Response(
            status: HTTPResponse.Status(code: error.code.status.rawValue), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The bytes of every error answer, whoever writes it (a route's middleware, the responder
    /// for unmatched paths, the connection guard for a request NIO could not parse).
    public static func errorBody(for error: ProvisioError, requestID: String) -> Data {
        (try? WireCoding.encoder.encode(WireError(error, requestID: requestID))) ?? Data()
    }
}
