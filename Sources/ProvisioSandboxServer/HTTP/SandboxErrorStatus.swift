import HTTPTypes
import ProvisioCore
import ProvisioSandbox

/// The one place where the sandbox's error codes become HTTP statuses. The sandbox keeps the
/// codes its domain throws (and Provisio's, relayed by the issuer connection), so a caller can
/// tell a locked OTP from a wrong one; the status only says which kind of failure it was.
enum SandboxErrorStatus {
    static func status(for code: ProvisioError.Code) -> HTTPResponse.Status {
        if let status = exact[code] { return status }
        // Everything else is the sandbox (or the issuer behind it) refusing a well-formed request:
        // a wrong TAV, an expired code, scores out of range, a scheme mismatch.
        return .unprocessableContent
    }

    private static let exact: [ProvisioError.Code: HTTPResponse.Status] = [
        .sandboxUnauthorized: .unauthorized,
        .sandboxInvalidRequest: .badRequest,
        .sandboxPayloadTooLarge: .contentTooLarge,
        .sandboxRouteNotFound: .notFound,
        .sandboxInternalError: .internalServerError,
        // Unknown things.
        .sandboxNetworkTokenUnknown: .notFound,
        .sandboxSessionUnknown: .notFound,
        .sandboxPassUnknown: .notFound,
        .sandboxOutcomeUnknown: .notFound,
        .sandboxDeviceUnavailable: .notFound,
        // The request is fine but the state it meets is not.
        .sandboxNetworkTokenStateInvalid: .conflict,
        .sandboxPassExists: .conflict,
        .sandboxPassStateInvalid: .conflict,
        .sandboxOTPLocked: .conflict,
        .sandboxSessionReplayed: .conflict,
        // The issuer (Provisio) could not be asked, or answered nonsense.
        .sandboxIssuerUnreachable: .badGateway,
        .sandboxIssuerError: .badGateway,
        .sandboxIssuerAnswerMalformed: .badGateway,
    ]
}
