import Foundation
import HTTPTypes
import Hummingbird
import ProvisioCore

/// Signing in and out. The sign-in form carries a random token that must match its own
/// cookie (there is no session yet to derive one from).
extension ConsoleRoutes {
    func signInPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let token = RandomToken.hex(byteCount: 16)
        var headers = HTTPFields()
        headers[.setCookie] = credentials.signInCookie(token)
        return pages.page("sign-in", ["title": "Sign in", "csrf": token], headers: headers)
    }

    func signIn(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let form = try await Self.readForm(request)
        try ConsoleCredentials.requireMatch(
            form["csrf"], ConsoleCredentials.cookie(ConsoleCredentials.signInCookie, in: request.headers))
        do {
            let (_, token) = try await operators.signIn(email: form["email"] ?? "", password: form["password"] ?? "")
            var headers = HTTPFields()
            headers[.setCookie] = credentials.sessionCookie(token, maxAge: OperatorService.sessionLifetime)
            return ConsolePages.redirect("/console", headers: headers)
        } catch let error as ProvisioError where error.code == .signInFailed || error.code == .signInLocked {
            // The form again, with the reason and a fresh token; never the password.
            let fresh = RandomToken.hex(byteCount: 16)
            var headers = HTTPFields()
            headers[.setCookie] = credentials.signInCookie(fresh)
            headers[HTTPField.Name("X-Error-Code")!] = error.code.rawValue
            let values: [String: Any] = [
                "title": "Sign in", "csrf": fresh, "email": form["email"] ?? "",
                "failure": ["message": error.message, "code": error.code.rawValue],
            ]
            return pages.page("sign-in", values, status: HTTPResponse.Status(code: error.code.status.rawValue), headers: headers)
        }
    }

    func signOut(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let (_, signedIn) = try await Self.form(request, context, role: .viewer, to: "sign out")
        try await operators.signOut(token: signedIn.sessionToken)
        var headers = HTTPFields()
        headers[.setCookie] = credentials.clearedSessionCookie()
        return ConsolePages.redirect("/console/sign-in", headers: headers)
    }
}
