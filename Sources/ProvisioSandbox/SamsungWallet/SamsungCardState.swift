/// A card's state as `getAllCards` reports it (`Card.ACTIVE` and so on: names from Samsung's API
/// reference index, string values from Thales's TPC SDK; docs/samsung-wallet.md).
public enum SamsungCardState: String, Sendable, Hashable, CaseIterable {
    /// Fully registered and usable.
    case active = "ACTIVE"
    /// Provisioning is not finished.
    case pendingProvision = "PENDING_PROVISION"
    /// Registered, waiting for the cardholder's identity verification (the yellow path).
    case pendingActivation = "PENDING_ACTIVATION"
    case suspended = "SUSPENDED"
    /// Registered, and the token reached its end of life.
    case expired = "EXPIRED"
    /// Deleted from Samsung Wallet.
    case disposed = "DISPOSED"

    /// Whether the card still counts as in the wallet (a new add of it is `ERROR_ALREADY_DONE`).
    public var isInWallet: Bool { self != .disposed && self != .expired }
}
