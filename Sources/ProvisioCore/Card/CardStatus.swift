/// Whether a card may still be provisioned. Closing is final: a closed card is never eligible.
public enum CardStatus: String, Codable, Hashable, Sendable {
    case active
    case closed

    public var isEligibleForProvisioning: Bool { self == .active }
}
