import Foundation

/// What `generateAddPaymentPassRequestForPassEntryWithIdentifier` needs once the entry checks out:
/// the card, its account (whose session token ProvisioKit uses to call Provisio) and the device.
public struct AddRequestPlan: Hashable, Sendable {
    /// The entry Wallet asked for.
    public let entry: PassEntryIdentifier
    /// The account whose session pays for the call to Provisio.
    public let accountID: ExtensionAccount.ID
    /// The card to add.
    public let card: WalletCard

    public init(entry: PassEntryIdentifier, accountID: ExtensionAccount.ID, card: WalletCard) {
        self.entry = entry
        self.accountID = accountID
        self.card = card
    }

    /// The device the pass is being added to.
    public var device: WalletDevice { entry.device }

    /// The ledger record to write once the request has been handed to Wallet.
    public func pendingAdd(startedAt: Date) -> PendingAdd {
        PendingAdd(card: card.identity, device: device, startedAt: startedAt)
    }
}
