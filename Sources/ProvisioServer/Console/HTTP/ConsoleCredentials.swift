import Crypto
import Foundation
import HTTPTypes
import ProvisioCore
import ProvisioHTTP

/// The console's cookies and its defence against cross-site requests. The session cookie is
/// HttpOnly, SameSite=Strict, scoped to /console, and Secure outside development. Every form
/// carries a CSRF token: after sign-in an HMAC of the session secret (nothing to store, useless
/// without the cookie); on the sign-in form a random value that must match its own cookie.
struct ConsoleCredentials: Sendable {
    static let sessionCookie = "provisio_console"
    static let signInCookie = "provisio_console_csrf"

    let secureCookies: Bool

    func sessionCookie(_ token: String, maxAge: TimeInterval) -> String {
        cookie(Self.sessionCookie, token, maxAge: Int(maxAge))
    }

    func clearedSessionCookie() -> String { cookie(Self.sessionCookie, "", maxAge: 0) }

    func signInCookie(_ value: String) -> String { cookie(Self.signInCookie, value, maxAge: 3600) }

    private func cookie(_ name: String, _ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=/console; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)" + (secureCookies ? "; Secure" : "")
    }

    /// The value of cookie `name` in the request, if any.
    static func cookie(_ name: String, in fields: HTTPFields) -> String? {
        for header in fields[values: .cookie] {
            for part in header.split(separator: ";") {
                let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0] == name { return String(pair[1]) }
            }
        }
        return nil
    }

    /// The CSRF token of the forms of a session.
    static func csrfToken(session token: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("provisio-console-csrf".utf8), using: SymmetricKey(data: Data(token.utf8)))
        return BinaryText.base64URL(Data(mac))
    }

    /// Throws `csrf_token_invalid` unless `submitted` is `expected`, compared in constant time.
    static func requireMatch(_ submitted: String?, _ expected: String?) throws {
        guard let submitted, let expected, !expected.isEmpty,
            ConstantTime.equal(submitted, expected)
        else {
            throw ProvisioError(.csrfTokenInvalid, "The form is stale or came from another site; reload the page and try again.")
        }
    }
}
