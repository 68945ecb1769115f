import Foundation
import ProvisioClient
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// ProvisioKit's failures as the SDK's one error: the deadline, a payload provider's error, and
/// what PassKit reported.
extension ProvisioClientError {
    /// Provisio did not answer within `deadline` seconds.
    static func deadlineExceeded(_ deadline: TimeInterval) -> ProvisioClientError {
        ProvisioClientError(
            .addDeadlineExceeded, "Provisio did not answer within the \(Seconds.text(deadline)) deadline.",
            userMessage: "Adding the card took too long. Please try again.")
    }

    /// Any error from a payload provider. The client's errors pass through whole (their code,
    /// status and request id); a `ProvisioError` keeps its code.
    init(payloadError error: any Error) {
        switch error {
        case let error as ProvisioClientError:
            self = error
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
}
