import Foundation

/// Every failure of a `ProvisioMobileClient` call: the server's stable error code when it answered
/// with one (`{"error": {"code", "message", "request_id"}}`), otherwise one of the client's own
/// codes below. Messages never carry a PAN or a credential.
public struct ProvisioClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable code: the server's (e.g. `card_not_found`, `token_expired`) or the client's.
    public let code: String
    /// A sentence for people (the server's message, or the client's).
    public let message: String
    /// The HTTP status, when the server answered.
    public let httpStatus: Int?
    /// The server's request id, when it gave one (quote it to support).
    public let requestID: String?

    public init(code: String, message: String, httpStatus: Int? = nil, requestID: String? = nil) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.requestID = requestID
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        if let requestID { text += " [\(requestID)]" }
        return text
    }

    /// Whether the server's answer was an error (not the network, the timeout or the client).
    public var isServerError: Bool { httpStatus != nil }

    /// The whole call did not finish within its timeout.
    public static let timeoutCode = "client_timeout"
    /// The request could not be sent or its answer not received (no connection, TLS, …).
    public static let transportFailedCode = "client_transport_failed"
    /// The server answered with something that is not the documented shape.
    public static let responseInvalidCode = "client_response_invalid"
    /// The call was cancelled by its caller.
    public static let cancelledCode = "client_cancelled"
    /// The request could not be built (bad card id, bad base URL).
    public static let requestInvalidCode = "client_request_invalid"
}
