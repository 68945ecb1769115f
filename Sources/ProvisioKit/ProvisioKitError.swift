import Foundation
import ProvisioClient
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// The one error ProvisioKit reports: a stable `code` to branch on, a `message` for developers and
/// logs, and a `userMessage` the app can show. Neither message ever holds a PAN or a credential.
public struct ProvisioKitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable code: one of the `ProvisioError.Code`s below, or the server's own code
    /// (`card_not_found`, `token_expired`, …) or `ProvisioClientError`'s (`client_timeout`, …).
    public let code: ProvisioError.Code
    /// What happened, for developers.
    public let message: String
    /// A sentence the app can show the cardholder.
    public let userMessage: String
    /// Provisio's request id, when the server answered (quote it to support).
    public let requestID: String?

    public init(_ code: ProvisioError.Code, _ message: String, userMessage: String, requestID: String? = nil) {
        self.code = code
        self.message = message
        self.userMessage = userMessage
        self.requestID = requestID
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension ProvisioKitError {
    static let tryAgain = "The card couldn't be added to Apple Wallet. Please try again later."

    /// Provisio did not answer within `deadline` seconds.
    static func deadlineExceeded(_ deadline: TimeInterval) -> ProvisioKitError {
        ProvisioKitError(
            .addDeadlineExceeded, "Provisio did not answer within the \(Seconds.text(deadline)) deadline.",
            userMessage: "Adding the card took too long. Please try again.")
    }

    /// Any error from a payload provider.
    init(payloadError error: any Error) {
        switch error {
        case let error as ProvisioKitError:
            self = error
        case let error as ProvisioClientError:
            self.init(
                ProvisioError.Code(received: error.code), error.message, userMessage: Self.userMessage(forServerCode: error.code),
                requestID: error.requestID)
        case let error as ProvisioError:
            self.init(error.code, error.message, userMessage: Self.tryAgain)
        default:
            self.init(
                .payloadProviderFailed, "The payload provider failed (\(String(describing: type(of: error))).",
                userMessage: Self.tryAgain)
        }
    }

    /// What PassKit reported in `didFinishAdding` when no pass was added; nil for the cardholder
    /// cancelling (not an error).
    init?(passKitError error: any Error) {
        let nsError = error as NSError
        guard nsError.domain == PKPassKitErrorDomain else {
            self.init(
                .passKitUnknown, "PassKit failed (\(nsError.domain) \(nsError.code)).", userMessage: Self.tryAgain)
            return
        }
        switch PKAddPaymentPassError(rawValue: nsError.code) {
        case .userCancelled:
            return nil
        case .unsupported:
            self.init(
                .passKitUnsupported, "PassKit cannot add payment passes here.",
                userMessage: "This device can't add cards to Apple Wallet.")
        case .systemCancelled:
            self.init(.passKitSystemCancelled, "PassKit cancelled the add.", userMessage: Self.tryAgain)
        default:
            self.init(.passKitUnknown, "PassKit failed (code \(nsError.code)).", userMessage: Self.tryAgain)
        }
    }

    static func userMessage(forServerCode code: String) -> String {
        switch code {
        case "missing_credentials", "invalid_credentials", "token_expired", "token_already_used", "wrong_credential_kind":
            "Your session has expired. Please sign in again."
        case "card_not_found", "card_closed", "card_expired", "token_scope_mismatch":
            "This card can't be added to Apple Wallet."
        case ProvisioClientError.timeoutCode:
            "Adding the card took too long. Please try again."
        case ProvisioClientError.transportFailedCode:
            "We couldn't reach your bank. Check your connection and try again."
        default:
            tryAgain
        }
    }
}
