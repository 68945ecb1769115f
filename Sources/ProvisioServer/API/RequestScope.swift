import Hummingbird
import Logging
import ProvisioCore

/// What a generated handler needs to know about its request that the generated `APIProtocol`
/// methods are not given: the request id and who is calling. `RequestScopeMiddleware` sets it
/// around the handler, after authentication has run.
struct RequestScope: Sendable {
    var requestID: String
    var principal: Principal?
    var logger: Logger

    @TaskLocal static var current: RequestScope?

    /// The scope of the running request; outside one it is a wiring mistake (500).
    static func require() throws -> RequestScope {
        guard let current else {
            throw ProvisioError(.internalError, "The server could not complete the request.")
        }
        return current
    }

    /// The authenticated principal, or `missing_credentials` when an operation is reached
    /// without one (a wiring mistake: such operations are registered behind an authenticator).
    func requirePrincipal() throws -> Principal {
        guard let principal else { throw APIError.missingCredentials() }
        return principal
    }
}

/// Makes the request's `RequestScope` current for everything after it in the chain, and its
/// caller the actor of whatever the request changes (`AuditContext`).
struct RequestScopeMiddleware: RouterMiddleware {
    typealias Context = ProvisioRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let scope = RequestScope(requestID: context.requestID, principal: context.principal, logger: context.logger)
        let audit = AuditContext(actor: context.principal.map(\.auditActor) ?? .system, requestID: context.requestID)
        return try await RequestScope.$current.withValue(scope) {
            try await AuditContext.$current.withValue(audit) { try await next(request, context) }
        }
    }
}
