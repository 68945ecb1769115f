import HTTPTypes
import ProvisioCore

/// The one place where error codes become HTTP statuses.
enum ErrorStatus {
    static func status(for code: ProvisioError.Code) -> HTTPResponse.Status {
        if let status = exact[code] { return status }
        let raw = code.rawValue
        if raw.hasPrefix("chain_") || raw.hasPrefix("tav_") || raw.hasPrefix("payload_") { return .unprocessableContent }
        if raw.hasPrefix("invalid_") || raw.hasPrefix("unsupported_") { return .badRequest }
        if raw.hasPrefix("vault_") || raw.hasPrefix("keys_") { return .internalServerError }
        return .badRequest
    }

    private static let exact: [ProvisioError.Code: HTTPResponse.Status] = [
        .missingCredentials: .unauthorized,
        .invalidCredentials: .unauthorized,
        .tokenExpired: .unauthorized,
        .tokenAlreadyUsed: .conflict,
        .tokenScopeMismatch: .forbidden,
        .wrongCredentialKind: .forbidden,
        .payloadTooLarge: .contentTooLarge,
        .requestTimeout: .requestTimeout,
        .malformedRequest: .badRequest,
        .routeNotFound: .notFound,
        .methodNotAllowed: .methodNotAllowed,
        .cardNotFound: .notFound,
        .tokenNotFound: .notFound,
        .otpRelayNotConfigured: .badGateway,
        .otpRelayFailed: .badGateway,
        .tokenInvalidTransition: .conflict,
        .networkConnectorNotConfigured: .serviceUnavailable,
        .networkUnavailable: .badGateway,
        .networkRefused: .conflict,
        .networkCredentialsRejected: .badGateway,
        .networkAnswerMalformed: .badGateway,
        .invalidDecisionRules: .unprocessableContent,
        .webhookEndpointNotFound: .notFound,
        .webhookDeliveryNotFound: .notFound,
        .webhookEndpointLimitReached: .conflict,
        .cardClosed: .conflict,
        .cardExpired: .unprocessableContent,
        .unsupportedNetwork: .unprocessableContent,
        .idempotencyKeyReused: .unprocessableContent,
        .idempotencyRequestInProgress: .conflict,
        .idempotencyReplayUnavailable: .conflict,
        .databaseUnavailable: .serviceUnavailable,
        .internalError: .internalServerError,
    ]
}
