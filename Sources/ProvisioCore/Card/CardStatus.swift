/// Whether a card may be provisioned. A locked card may not, until it is unlocked (its tokens
/// are suspended meanwhile); closing is final: a closed card is never eligible again.
public enum CardStatus: String, Codable, Hashable, Sendable {
    case active
    case locked
    case closed

    public var isEligibleForProvisioning: Bool { self == .active }
}
