import ProvisioCore
import ProvisioHTTP

/// Error codes raised by the HTTP layer itself (authentication, routing, request shape).
enum APIError {
    static func missingCredentials() -> ProvisioError {
        BearerAuthorization.missing(.provisio)
    }
    static func invalidCredentials() -> ProvisioError {
        ProvisioError(.invalidCredentials, "The bearer token is not valid.")
    }
}
