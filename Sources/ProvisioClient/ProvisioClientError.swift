import Foundation
import ProvisioCore

/// The one error the SDK reports: every failed `ProvisioMobileClient` call, and every failure
/// ProvisioKit returns (in-app add, in-app verification). An app catches this type only.
///
/// - `code`: a typed `ProvisioError.Code` to branch on (`error.code == .clientTimeout`): the
///   server's code from its `{"error": {"code", "message", "request_id"}}` answer (built with
///   `ProvisioError.Code(received:)`), one of the client's own (`client_timeout`, …; see
///   `ClientErrorCodes.swift`) or one of ProvisioKit's (`add_deadline_exceeded`, `passkit_*`, …);
/// - `message`, for developers and logs; `userMessage`, a sentence the app can show as it is;
/// - `httpStatus` and `requestID`, when the server answered (quote the request id to support).
///
/// ProvisioKit's former `ProvisioKitError` is merged into this type, not the reverse: ProvisioKit
/// depends on ProvisioClient and an app may use ProvisioClient alone, so the one type lives in
/// the lower module. Neither message ever holds a PAN or a credential.
public struct ProvisioClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable code. Equal codes have equal strings, whatever status each was built with.
    public let code: ProvisioError.Code
    /// What happened, for developers (the server's message, or the SDK's).
    public let message: String
    /// A sentence the app can show the cardholder.
    public let userMessage: String
    /// The HTTP status, when the server answered.
    public let httpStatus: Int?
    /// The server's request id, when it gave one (quote it to support).
    public let requestID: String?

    /// - Parameter userMessage: by default the sentence for `code` (`userMessage(for:)`).
    public init(
        _ code: ProvisioError.Code, _ message: String, userMessage: String? = nil, httpStatus: Int? = nil,
        requestID: String? = nil
    ) {
        self.code = code
        self.message = message
        self.userMessage = userMessage ?? Self.userMessage(for: code)
        self.httpStatus = httpStatus
        self.requestID = requestID
    }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        if let requestID { text += " [\(requestID)]" }
        return text
    }

    /// Whether the server's answer was an error (not the network, the timeout or the client).
    public var isServerError: Bool { httpStatus != nil }
}
