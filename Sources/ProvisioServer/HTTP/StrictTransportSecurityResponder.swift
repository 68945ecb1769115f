import HTTPTypes
import Hummingbird

/// Adds HSTS to every answer when clients reach the server over TLS (its own, or a declared
/// TLS-terminating proxy's): a browser that once saw it will not speak plain http to this host
/// for a year, so a network attacker cannot strip TLS from the console or the API. Over plain
/// http it adds nothing (the header means nothing there, and would pin a development host).
struct StrictTransportSecurityResponder<Inner: HTTPResponder>: HTTPResponder {
    typealias Context = Inner.Context
    static var value: String { StrictTransportSecurity.value }

    let inner: Inner
    let enabled: Bool

    func respond(to request: Request, context: Context) async throws -> Response {
        var response = try await inner.respond(to: request, context: context)
        if enabled { response.headers[.strictTransportSecurity] = Self.value }
        return response
    }
}

/// The HSTS value of every answer over TLS, whoever writes it: a year, subdomains included.
enum StrictTransportSecurity {
    static let value = "max-age=31536000; includeSubDomains"
}
