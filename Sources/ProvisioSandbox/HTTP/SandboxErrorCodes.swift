import ProvisioCore

extension ProvisioError.Code {
    /// No `Authorization: Bearer <api key>` header, or the wrong key.
    public static let sandboxUnauthorized = Self("sandbox_unauthorized", status: .unauthorized)
    /// Malformed JSON, a missing, mistyped, null or unknown field, a bad path or query value.
    public static let sandboxInvalidRequest = Self("sandbox_invalid_request", status: .badRequest)
    public static let sandboxPayloadTooLarge = Self("sandbox_payload_too_large", status: .contentTooLarge)
    /// The body had not all arrived in time after the headers.
    public static let sandboxRequestTimeout = Self("sandbox_request_timeout", status: .requestTimeout)
    public static let sandboxRouteNotFound = Self("sandbox_route_not_found", status: .notFound)
    /// No outcome is recorded for this add-card session (it was never submitted, or refused
    /// before it reached the network).
    public static let sandboxOutcomeUnknown = Self("sandbox_outcome_unknown", status: .notFound)
    public static let sandboxInternalError = Self("sandbox_internal_error", status: .internalServerError)
    /// `SandboxClient` could not reach the sandbox service.
    public static let sandboxUnreachable = Self("sandbox_unreachable", status: .unprocessableContent)
    /// The sandbox service answered something that is not its JSON.
    public static let sandboxAnswerMalformed = Self("sandbox_answer_malformed", status: .unprocessableContent)
}
