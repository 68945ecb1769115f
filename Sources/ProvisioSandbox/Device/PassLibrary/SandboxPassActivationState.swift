/// Mirrors `PKSecureElementPass.PassActivationState`.
public enum SandboxPassActivationState: String, Codable, Hashable, Sendable, CaseIterable {
    case activated
    case requiresActivation
    case activating
    case suspended
    case deactivated

    /// Wallet never brings a deactivated pass back; the card has to be added again.
    public var isTerminal: Bool { self == .deactivated }
}
