import HTTPTypes
import Hummingbird
import ProvisioCore

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
