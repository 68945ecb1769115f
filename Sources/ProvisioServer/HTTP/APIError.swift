import ProvisioCore

/// Error codes raised by the HTTP layer itself (authentication, routing, request shape).
enum APIError {
    static func missingCredentials() -> ProvisioError {
        ProvisioError(.missingCredentials, "Send an Authorization: Bearer header.")
    }
    static func invalidCredentials() -> ProvisioError {
        ProvisioError(.invalidCredentials, "The bearer token is not valid.")
    }
}

extension ProvisioError.Code {
    public static let missingCredentials: Self = "missing_credentials"
    public static let invalidCredentials: Self = "invalid_credentials"
    public static let tokenExpired: Self = "token_expired"
    public static let tokenAlreadyUsed: Self = "token_already_used"
    public static let tokenScopeMismatch: Self = "token_scope_mismatch"
    public static let wrongCredentialKind: Self = "wrong_credential_kind"
    public static let unknownField: Self = "unknown_field"
    public static let payloadTooLarge: Self = "payload_too_large"
    public static let routeNotFound: Self = "route_not_found"
    public static let methodNotAllowed: Self = "method_not_allowed"
    public static let cardNotFound: Self = "card_not_found"
    public static let tenantNotFound: Self = "tenant_not_found"
    public static let cardClosed: Self = "card_closed"
    public static let invalidParameter: Self = "invalid_parameter"
    public static let idempotencyKeyReused: Self = "idempotency_key_reused"
    public static let idempotencyKeyInvalid: Self = "idempotency_key_invalid"
    public static let idempotencyRequestInProgress: Self = "idempotency_request_in_progress"
    public static let internalError: Self = "internal_error"
}
