import Hummingbird
import Logging
import ProvisioCore

/// Turns every error into the wire error shape with a stable code and the request id, answered
/// with the status its code declares (`ProvisioError.Code.status`), and stamps `X-Request-Id` on
/// every response. Errors of 500 and above are logged with their code and type only (an error's
/// description could quote input).
public struct WireErrorMiddleware<Context: WireRequestContext>: RouterMiddleware {
    public let dialect: WireDialect

    public init(dialect: WireDialect) {
        self.dialect = dialect
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let mapped = dialect.provisioError(for: error)
            if mapped.code.status.rawValue >= 500 {
                context.logger.error("request failed", metadata: ["code": "\(mapped.code)", "error_type": "\(type(of: error))"])
            }
            response = dialect.response(for: mapped, requestID: context.requestID)
        }
        response.headers[.requestID] = context.requestID
        return response
    }
}
