/// One card offered to Wallet for one device; ProvisioKit maps it to a
/// `PKIssuerProvisioningExtensionPaymentPassEntry` (loading the art, building the request
/// configuration from `request`).
public struct PassEntry: Hashable, Sendable, Identifiable {
    /// The identifier given to Wallet (card and device).
    public let identifier: PassEntryIdentifier
    /// The account the card belongs to.
    public let accountID: ExtensionAccount.ID
    /// The configured card.
    public let card: WalletCard

    public init(card: WalletCard, accountID: ExtensionAccount.ID, device: WalletDevice) {
        self.identifier = PassEntryIdentifier(cardID: card.id, device: device)
        self.accountID = accountID
        self.card = card
    }

    /// The identifier's string form.
    public var id: String { identifier.rawValue }
    /// The device the entry is offered for.
    public var device: WalletDevice { identifier.device }
    /// The entry's title.
    public var title: String { card.title }
    /// The art's file name in the App Group container (nil only in a configuration that
    /// `problems()` refuses).
    public var artReference: String? { card.artReference }
    /// The add request configuration for this card.
    public var request: AddPassRequestConfiguration { AddPassRequestConfiguration(card: card) }
}
