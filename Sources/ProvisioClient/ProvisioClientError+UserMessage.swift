import ProvisioCore

extension ProvisioClientError {
    /// The sentence for codes without one of their own.
    package static let tryAgain = "The card couldn't be added to Apple Wallet. Please try again later."

    /// The sentence the app can show for `code`. Most calls of the mobile API serve an add to
    /// Apple Wallet, so most sentences speak of that; the token codes speak of the cardholder's
    /// own controls (`walletTokens()` and the calls after it). The server's codes are the shared ones of
    /// error-codes.yaml (ProvisioCore), so a code renamed or dropped there no longer compiles here.
    package static func userMessage(for code: ProvisioError.Code) -> String {
        switch code {
        case .missingCredentials, .invalidCredentials, .tokenExpired, .tokenAlreadyUsed, .wrongCredentialKind:
            return "Your session has expired. Please sign in again."
        case .cardNotFound, .cardClosed, .cardExpired, .tokenScopeMismatch:
            return "This card can't be added to Apple Wallet."
        case .tokenNotFound: return "This card is no longer on that device."
        case .tokenInvalidTransition: return "This card can't be changed on that device right now."
        case .cardLocked: return "This card is locked. Please contact your bank."
        case .clientTimeout: return "Adding the card took too long. Please try again."
        case .clientTransportFailed: return "We couldn't reach your bank. Check your connection and try again."
        default: return tryAgain
        }
    }
}
