import ProvisioCore

/// A card as `GET /v1/mobile/cards` lists it: what the Add button and the request configuration
/// need, never the PAN.
public struct MobileCard: Sendable, Hashable, Identifiable, Decodable {
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

    private enum CodingKeys: String, CodingKey {
        case id, last4, network
        case cardholderName = "cardholder_name"
        case productTitle = "product_title"
        case cardArtURL = "card_art_url"
        case primaryAccountIdentifier = "primary_account_identifier"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(String.self, forKey: .id)
        self.last4 = try container.decode(String.self, forKey: .last4)
        self.network = PaymentNetwork(rawValue: try container.decode(String.self, forKey: .network)) ?? .unknown
        self.cardholderName = try container.decode(String.self, forKey: .cardholderName)
        self.productTitle = try container.decodeIfPresent(String.self, forKey: .productTitle)
        self.cardArtURL = try container.decodeIfPresent(String.self, forKey: .cardArtURL)
        self.primaryAccountIdentifier = try container.decode(String.self, forKey: .primaryAccountIdentifier)
    }

    /// The card as the pass library matches it.
    public var identity: CardIdentity { CardIdentity(primaryAccountIdentifier: primaryAccountIdentifier, last4: last4) }
}
