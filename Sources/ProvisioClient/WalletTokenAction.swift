/// A change the cardholder makes to one of their own tokens from the app
/// (`POST /v1/mobile/tokens/{id}/transitions`).
public enum WalletTokenAction: String, Hashable, Sendable, CaseIterable {
    /// A lost device: the token stops paying until resumed.
    case suspend
    /// The device found again: a suspended token pays again.
    case resume
    /// A device sold or given away: the token and its pass are removed for good.
    case delete
}
