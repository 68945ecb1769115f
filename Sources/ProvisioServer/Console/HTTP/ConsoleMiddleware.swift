import HTTPTypes
import Hummingbird
import ProvisioCore

/// Every signed-in page: finds the operator behind the session cookie, refuses a POST whose
/// CSRF token does not match the session, and makes the operator the actor of whatever the
/// request changes. A GET without a live session goes to the sign-in page.
struct ConsoleSessionMiddleware: RouterMiddleware {
    typealias Context = ProvisioRequestContext
    let operators: OperatorService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard let token = ConsoleCredentials.cookie(ConsoleCredentials.sessionCookie, in: request.headers),
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

/// Errors on console pages are pages: the status and stable code of the error, in HTML.
struct ConsoleErrorMiddleware: RouterMiddleware {
    typealias Context = ProvisioRequestContext
    let pages: ConsolePages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as ProvisioError {
            var values: [String: Any] = ["title": "Something went wrong", "message": error.message, "code": error.code.rawValue]
            if let signedIn = context.console {
                values["operator"] = ["email": signedIn.operatorRecord.email, "role": signedIn.role.rawValue]
                values["csrf"] = signedIn.csrf
            }
            var headers = HTTPFields()
            headers[HTTPField.Name("X-Error-Code")!] = error.code.rawValue
            headers[HTTPField.Name("X-Request-Id")!] = context.requestID
            return pages.page("error", values, status: HTTPResponse.Status(code: error.code.status.rawValue), headers: headers)
        }
    }
}
