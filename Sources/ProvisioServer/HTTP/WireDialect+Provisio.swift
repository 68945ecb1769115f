import Foundation
import HTTPTypes
import OpenAPIRuntime
import ProvisioCore
import ProvisioHTTP
import ProvisioJSON
import ProvisioNetworkConnector

extension WireDialect {
    /// Provisio's wire: each refusal of the shared HTTP layer has its own code (`invalid_json`,
    /// `duplicate_json_key`, `unknown_field`, …), a value outside a field's documented set the
    /// field's code where it has one, and a 413 or 408 closes the connection once answered
    /// (`ConnectionGuardHandler` drains it first).
    static let provisio = WireDialect(
        invalidJSON: .invalidJSON, duplicateKey: .duplicateJSONKey, invalidRequest: .invalidRequest,
        unknownField: .unknownField, invalidParameter: .invalidParameter, payloadTooLarge: .payloadTooLarge,
        requestTimeout: .requestTimeout, routeNotFound: .routeNotFound, methodNotAllowed: .methodNotAllowed,
        missingCredentials: .missingCredentials, internalError: .internalError, closesUnreadConnections: true,
        valueRefusal: { field in
            valueCodes[field].map { ProvisioError($0, "The field '\(field)' has a value this endpoint does not accept.") }
        },
        parameterRefusal: { error, decodingError in queryParameterError(decodingError, request: error.request) },
        expectedStates: [.networkConnectorNotConfigured, .otpRelayNotConfigured],
        // PUT /v1/settings/network: MDES's OAuth signing key and Mastercard's certificate, in PEM;
        // PUT /v1/settings/google-pay: Google's OpenPGP keys, in ASCII armour.
        multilineFields: ["oauth_signing_key_pem", "mastercard_encryption_certificate_pem", "google_encryption_keys"])

    /// The field's own code for a value outside its documented set (`device_type` →
    /// `invalid_device_type`); other fields get `invalid_request`.
    static let valueCodes: [String: ProvisioError.Code] = [
        "action": .invalidParameter,  // TokenTransitionRequest
        "mode": .invalidParameter,  // TokenActivationRequest
        "channel": .invalidParameter,  // NetworkOTPRequest
        "method": .invalidParameter,  // MobileTokenActivationRequest
        "events": .invalidParameter,  // CreateWebhookEndpointRequest
        "event": .invalidParameter,  // NetworkTokenEventRequest
        "wallet_recommendation": .invalidRiskAssessment,  // NetworkTokenRequest.risk
        "device_type": .invalidDeviceType,
        "wallet": .invalidWallet,  // ProvisionTokenRequest
    ]

    /// A query parameter's value the generated code could not read as its type (decoded at the
    /// root, like every parameter). The only query parameter the document types as other than a
    /// string is `limit`.
    static func queryParameterError(_ error: DecodingError, request: HTTPRequest) -> ProvisioError? {
        guard let query = request.path?.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        // A required parameter left out of a query that has others (`/v1/tokens?limit=5`); the
        // decoder does not name it.
        if case .valueNotFound = error {
            return ProvisioError(.invalidParameter, "A required query parameter is missing.")
        }
        let names = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first ?? "" }
        guard names.contains("limit") else { return nil }
        return ProvisioError(.invalidParameter, "limit must be an integer.")
    }
}
