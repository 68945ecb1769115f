import ProvisioCore

/// What became of one submission at the network: a value, red included, so a caller can show
/// the cardholder why (the `NetworkForwarding` path turns red into a thrown refusal).
public struct NetworkProvisioningOutcome: Sendable, Hashable {
    public let sessionID: String
    public let networkTokenRef: String
    public let issuerTokenID: String
    public let decision: DecisionOutcome
    public let reasons: [String]
    /// Empty unless the issuer asked for verification.
    public let activationMethods: [String]
    /// What Wallet shows for each method before a code is sent (the masked contacts).
    public var activationOffers: [SandboxActivationOffer] = []
    /// The pass Wallet added: activated (green), requiring activation (yellow), nil (red).
    public internal(set) var pass: SandboxPass?
    /// Set while Wallet waits for the cardholder to accept the card product's terms before it
    /// makes the pass (`pass` is nil until then).
    public internal(set) var awaitingTerms: SandboxCardProfile.Terms? = nil
}
