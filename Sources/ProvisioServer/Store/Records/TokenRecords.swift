import Foundation
import ProvisioCore

/// A wallet token for one of a tenant's cards, as the issuer tracks it.
public struct TokenRecord: Sendable, Equatable {
    public var id: String
    public var tenantID: String
    public var cardID: String
    public var wallet: Wallet
    public var deviceType: DeviceType?
    /// The card network's reference for the token (unique per tenant).
    public var networkTokenRef: String
    public var deviceAccountIdentifier: String?
    public var tokenLast4: String?
    /// The network token's own expiry (not the card's), once the network told it.
    public var tokenExpiryMonth: Int? = nil
    /// Four digits, with `tokenExpiryMonth`.
    public var tokenExpiryYear: Int? = nil
    public var state: TokenState
    /// The last state the network reported, as it named it.
    public var networkState: String?
    public var decision: DecisionOutcome
    public var decisionReasons: [String]
    public var createdAt: Date
    public var updatedAt: Date
}

/// One change of a token, kept forever.
public struct TokenEventRecord: Sendable, Equatable {
    public var id: String
    public var tokenID: String
    public var tenantID: String
    /// The webhook event type it published (`token.created`, `token.suspended`, …).
    public var type: String
    public var fromState: TokenState?
    public var toState: TokenState
    public var actor: TokenActor
    public var reasonCode: String?
    public var createdAt: Date
}
