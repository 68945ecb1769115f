import Foundation

/// "This card was just added to this device at this time": a record kept until the card's pass
/// shows up in the library, so the card is not offered a second time meanwhile.
public struct PendingAdd: Codable, Hashable, Sendable {
    /// The card being added.
    public var card: CardIdentity
    /// The device it is being added to.
    public var device: WalletDevice
    /// When the add request was handed to Wallet.
    public var startedAt: Date

    public init(card: CardIdentity, device: WalletDevice, startedAt: Date) {
        self.card = card
        self.device = device
        self.startedAt = startedAt
    }
}
