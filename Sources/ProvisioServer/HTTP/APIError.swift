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

extension ProvisioError.Code {
    public static let missingCredentials = Self("missing_credentials", status: .unauthorized)
    public static let invalidCredentials = Self("invalid_credentials", status: .unauthorized)
    public static let tokenExpired = Self("token_expired", status: .unauthorized)
    public static let tokenAlreadyUsed = Self("token_already_used", status: .conflict)
    public static let tokenScopeMismatch = Self("token_scope_mismatch", status: .forbidden)
    public static let wrongCredentialKind = Self("wrong_credential_kind", status: .forbidden)
    public static let unknownField = Self("unknown_field", status: .badRequest)
    public static let payloadTooLarge = Self("payload_too_large", status: .contentTooLarge)
    public static let routeNotFound = Self("route_not_found", status: .notFound)
    public static let methodNotAllowed = Self("method_not_allowed", status: .methodNotAllowed)
    public static let cardNotFound = Self("card_not_found", status: .notFound)
    public static let tenantNotFound = Self("tenant_not_found", status: .badRequest)
    public static let cardClosed = Self("card_closed", status: .conflict)
    public static let invalidParameter = Self("invalid_parameter", status: .badRequest)
    public static let idempotencyKeyReused = Self("idempotency_key_reused", status: .unprocessableContent)
    public static let idempotencyKeyInvalid = Self("idempotency_key_invalid", status: .badRequest)
    public static let idempotencyRequestInProgress = Self("idempotency_request_in_progress", status: .conflict)
    public static let internalError = Self("internal_error", status: .internalServerError)
}
