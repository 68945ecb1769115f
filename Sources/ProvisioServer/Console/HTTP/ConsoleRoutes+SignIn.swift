import Foundation
import HTTPTypes
import Hummingbird
import ProvisioCore

/// Signing in and out. The sign-in form names the tenant, and carries a random token that must
/// match its own cookie (there is no session yet to derive one from).
extension ConsoleRoutes {
    func signInPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let token = RandomToken.hex(byteCount: 16)
        var headers = HTTPFields()
        headers[.setCookie] = credentials.signInCookie(token)
        let values: [String: Any] = ["title": "Sign in", "csrf": token, "tenant": try Self.query(request)["tenant"] ?? ""]
        return pages.page("sign-in", values, headers: headers)
    }

    func signIn(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let form = try await Self.readForm(request)
        try ConsoleCredentials.requireMatch(form["csrf"], credentials.signInToken(in: request.headers))
        let address = SignInClientAddress.key(peer: context.peer, headers: request.headers, behindProxy: behindProxy)
        do {
            let (_, token) = try await operators.signIn(
                tenantID: form["tenant"] ?? "", email: form["email"] ?? "", password: form["password"] ?? "", from: address)
            var headers = HTTPFields()
            headers[.setCookie] = credentials.sessionCookie(token, maxAge: OperatorService.sessionLifetime)
            return ConsolePages.redirect("/console", headers: headers)
        } catch let error as ProvisioError where Self.signInRefusals.contains(error.code) {
            // The form again, with the reason and a fresh token; never the password.
            let fresh = RandomToken.hex(byteCount: 16)
            var headers = HTTPFields()
            headers[.setCookie] = credentials.signInCookie(fresh)
            headers[HTTPField.Name("X-Error-Code")!] = error.code.rawValue
            if error.code == .signInLimited {
                // The whole window: the same answer whichever limit was reached.
                headers[.retryAfter] = String(Int(operators.limits.window))
            } else if error.code == .signInBusy {
                headers[.retryAfter] = "1"
            }
            let values: [String: Any] = [
                "title": "Sign in", "csrf": fresh, "tenant": form["tenant"] ?? "", "email": form["email"] ?? "",
                "failure": ["message": error.message, "code": error.code.rawValue],
            ]
            return pages.page("sign-in", values, status: HTTPResponse.Status(code: error.code.status.rawValue), headers: headers)
        }
    }

    /// The refusals the sign-in form shows itself (anything else is the error page).
    static let signInRefusals: Set<ProvisioError.Code> = [.signInFailed, .signInLocked, .signInLimited, .signInBusy]

    func signOut(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let (_, signedIn) = try await Self.form(request, context, role: .viewer, to: "sign out")
        try await operators.signOut(token: signedIn.sessionToken)
        var headers = HTTPFields()
        headers[.setCookie] = credentials.clearedSessionCookie()
        return ConsolePages.redirect("/console/sign-in", headers: headers)
    }
}
