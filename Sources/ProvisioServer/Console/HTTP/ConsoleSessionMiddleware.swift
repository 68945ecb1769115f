import HTTPTypes
import Hummingbird
import ProvisioCore

/// Every signed-in page: finds the operator behind the session cookie, refuses a POST whose
/// CSRF token does not match the session, and makes the operator the actor of whatever the
/// request changes. A GET without a live session goes to the sign-in page.
struct ConsoleSessionMiddleware: RouterMiddleware {
    typealias Context = ProvisioRequestContext
    let operators: OperatorService
    let credentials: ConsoleCredentials

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard let token = credentials.sessionToken(in: request.headers),
            let record = try? await operators.session(token: token)
        else {
            if request.method == .get || request.method == .head { return ConsolePages.redirect("/console/sign-in") }
            throw ProvisioError(.consoleSessionInvalid, "Your session has ended; sign in again.")
        }
        var context = context
        context.console = ConsoleSignedIn(operatorRecord: record, sessionToken: token)
        context.logger[metadataKey: "operator_id"] = .string(record.id)
        let audit = AuditContext(actor: AuditActor(.operator, id: record.id), requestID: context.requestID)
        return try await AuditContext.$current.withValue(audit) { try await next(request, context) }
    }
}
