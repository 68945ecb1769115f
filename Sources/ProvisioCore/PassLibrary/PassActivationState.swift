/// Mirrors `PKSecureElementPass.PassActivationState`, the state of a pass's token on its device.
public enum PassActivationState: String, Codable, Hashable, Sendable, CaseIterable {
    case activated
    case requiresActivation
    case activating
    case suspended
    case deactivated

    /// True while the pass still stands for a live token; a deactivated pass is a leftover
    /// Wallet keeps until the cardholder removes it, and the card may be added again.
    public var isLive: Bool { self != .deactivated }
}
