/// Where a token stands at the network (its own view, next to the issuer's `TokenState`).
public enum NetworkTokenState: String, Codable, Hashable, Sendable, CaseIterable {
    /// Yellow: the token exists but cannot pay until the cardholder verifies.
    case pendingActivation = "pending_activation"
    case active
    case suspended
    /// Removed from Wallet, expired or deleted: never comes back.
    case deleted
    /// Red: the issuer refused; no pass was added.
    case declined

    public var isFinal: Bool { self == .deleted || self == .declined }
}
