import Crypto
import Foundation
import HTTPTypes
import ProvisioCore
import ProvisioHTTP

/// The console's cookies and its defence against cross-site requests. The cookies are HttpOnly
/// and SameSite=Strict. Over TLS (`secureCookies`) they are `__Host-` cookies: Secure, Path=/,
/// no Domain, so neither a sibling host nor a plain-http page can set or shadow them (and only
/// the prefixed name is read); over plain http, where a browser refuses those, plain names
/// scoped to /console. Every form carries a CSRF token: after sign-in an HMAC of the session
/// secret (nothing to store, useless without the cookie); on the sign-in form a random value
/// that must match its own cookie.
struct ConsoleCredentials: Sendable {
    static let sessionCookieBase = "provisio_console"
    static let signInCookieBase = "provisio_console_csrf"
    static let hostPrefix = "__Host-"

    let secureCookies: Bool

    var sessionCookieName: String { name(Self.sessionCookieBase) }
    var signInCookieName: String { name(Self.signInCookieBase) }

    private func name(_ base: String) -> String { secureCookies ? Self.hostPrefix + base : base }

    func sessionCookie(_ token: String, maxAge: TimeInterval) -> String {
        cookie(sessionCookieName, token, maxAge: Int(maxAge))
    }

    func clearedSessionCookie() -> String { cookie(sessionCookieName, "", maxAge: 0) }

    func signInCookie(_ value: String) -> String { cookie(signInCookieName, value, maxAge: 3600) }

    private func cookie(_ name: String, _ value: String, maxAge: Int) -> String {
        let scope = secureCookies ? "Path=/" : "Path=/console"
        return "\(name)=\(value); \(scope); HttpOnly; SameSite=Strict; Max-Age=\(maxAge)" + (secureCookies ? "; Secure" : "")
    }

    /// The session token the request carries, under this server's cookie name only.
    func sessionToken(in fields: HTTPFields) -> String? { Self.cookie(sessionCookieName, in: fields) }

    /// The sign-in form's CSRF cookie, under this server's cookie name only.
    func signInToken(in fields: HTTPFields) -> String? { Self.cookie(signInCookieName, in: fields) }

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
