import Hummingbird
import Logging
import ProvisioCore
import ProvisioJSON

/// Turns every error into the wire error shape with a stable code and the request id, answered
/// with the status its code declares (`ProvisioError.Code.status`), and stamps `X-Request-Id` on
/// every response. Each error answer is logged with its code and type only (an error's
/// description could quote input), at the level its code deserves (`WireDialect.logLevel`):
/// only a fault is "request failed".
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
            let level = dialect.logLevel(for: mapped.code)
            let metadata: Logger.Metadata = [
                "code": "\(mapped.code)", "status": "\(mapped.code.status.rawValue)", "error_type": "\(type(of: error))",
            ]
            switch level {
            case .error, .critical: context.logger.log(level: level, "request failed", metadata: metadata)
            case .warning: context.logger.warning("request refused: not configured", metadata: metadata)
            default: context.logger.log(level: level, "request refused", metadata: metadata)
            }
            response = dialect.response(for: mapped, requestID: context.requestID)
        }
        response.headers[.requestID] = context.requestID
        return response
    }
}
