import ProvisioCore
import ProvisioMobileAPI

/// A card as `GET /v1/mobile/cards` lists it: what the Add button and the request configuration
/// need, never the PAN.
public struct MobileCard: Sendable, Hashable, Identifiable {
    /// Provisio's card id (`card_…`).
    public var id: String
    /// The last four digits.
    public var last4: String
    /// The card's network; a name this client does not know is `.unknown`.
    public var network: PaymentNetwork
    /// The name on the card.
    public var cardholderName: String
    /// The issuer's product name, if set.
    public var productTitle: String?
    /// Where the card art is, if set.
    public var cardArtURL: String?
    /// The identifier Wallet stores on the pass (`PKAddPaymentPassRequestConfiguration.primaryAccountIdentifier`).
    public var primaryAccountIdentifier: String

    public init(
        id: String, last4: String, network: PaymentNetwork, cardholderName: String, productTitle: String? = nil,
        cardArtURL: String? = nil, primaryAccountIdentifier: String
    ) {
        self.id = id
        self.last4 = last4
        self.network = network
        self.cardholderName = cardholderName
        self.productTitle = productTitle
        self.cardArtURL = cardArtURL
        self.primaryAccountIdentifier = primaryAccountIdentifier
    }

    /// From the generated wire type.
    init(_ wire: Components.Schemas.MobileCard) {
        self.init(
            id: wire.id, last4: wire.last4, network: PaymentNetwork(rawValue: wire.network.rawValue) ?? .unknown,
            cardholderName: wire.cardholderName, productTitle: wire.productTitle, cardArtURL: wire.cardArtUrl,
            primaryAccountIdentifier: wire.primaryAccountIdentifier)
    }

    public var identity: CardIdentity { CardIdentity(primaryAccountIdentifier: primaryAccountIdentifier, last4: last4) }
}
