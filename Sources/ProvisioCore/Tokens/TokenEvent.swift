/// Everything that can happen to a token, whoever causes it.
public enum TokenEvent: Hashable, Sendable {
    /// The issuer's decision on a new token (green, yellow, red).
    case decided(DecisionOutcome)
    /// The cardholder verified (TAV in-app, OTP, customer service, or the issuer's app).
    case verified(VerificationMethod)
    case suspend(by: TokenActor)
    case resume(by: TokenActor)
    case delete(by: TokenActor)
}

/// Who asked for a change.
public enum TokenActor: String, Codable, Hashable, Sendable {
    /// The issuer, through the API.
    case issuer
    /// The card network or the wallet (device lost, removed from Wallet, token expired).
    case network
}

/// How a pending token was verified.
public enum VerificationMethod: String, Codable, Hashable, Sendable {
    case tav
    case otp
    case customerService = "customer_service"
    /// The issuer's app authenticated the cardholder itself (Thales TPC's in-app authentication).
    case appAuthentication = "app_authentication"
}
