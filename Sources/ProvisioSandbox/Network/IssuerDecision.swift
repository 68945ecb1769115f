import ProvisioCore

/// The issuer's answer to a token request: green, yellow or red, why, and for yellow how the
/// cardholder may verify.
public struct IssuerDecision: Sendable, Hashable {
    /// The issuer's (Provisio's) id of the token.
    public let tokenID: String
    public let outcome: DecisionOutcome
    public let reasons: [String]
    /// The issuer's token state, as it names it (`active`, `pending_verification`, `declined`, …).
    public let state: String
    /// On `require_verification`: `app_to_app`, `otp_sms`, `customer_service`, …
    public let activationMethods: [String]
    /// The same methods with what Wallet shows for each before a code is sent (masked contacts,
    /// the number to call); empty when the issuer named none.
    public var activationOffers: [SandboxActivationOffer] = []
    /// The card product's profile, when the card has a product (Provisio's `card_profile`).
    public let profile: SandboxCardProfile?

    public init(
        tokenID: String, outcome: DecisionOutcome, reasons: [String], state: String, activationMethods: [String],
        profile: SandboxCardProfile? = nil
    ) {
        self.profile = profile
        self.tokenID = tokenID
        self.outcome = outcome
        self.reasons = reasons
        self.state = state
        self.activationMethods = activationMethods
    }
}
