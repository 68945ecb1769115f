import Foundation
import ProvisioClient
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// A card the app offers to add to Apple Wallet: what the request configuration shows and what
/// the payload provider needs to find it. No PAN.
public struct WalletCard: Sendable, Hashable, Identifiable {
    /// The id the payload provider uses (Provisio's `card_…`, or the issuer's own).
    public var id: String
    /// The identifier Wallet stores on the pass.
    public var primaryAccountIdentifier: String
    /// The last four digits.
    public var last4: String
    /// The name on the card, if known.
    public var cardholderName: String?
    /// What Wallet shows while adding.
    public var localizedDescription: String
    /// Only a network known to match the card (nil leaves it out of the request).
    public var network: PaymentNetwork?

    public init(
        id: String, primaryAccountIdentifier: String, last4: String, cardholderName: String?, localizedDescription: String,
        network: PaymentNetwork?
    ) {
        self.id = id
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.last4 = last4
        self.cardholderName = cardholderName
        self.localizedDescription = localizedDescription
        self.network = network
    }

    /// A card as Provisio's mobile API lists it; the description is the product title, else "Card ending in …".
    public init(_ card: MobileCard, localizedDescription: String? = nil) {
        self.init(
            id: card.id, primaryAccountIdentifier: card.primaryAccountIdentifier, last4: card.last4,
            cardholderName: card.cardholderName,
            localizedDescription: localizedDescription ?? card.productTitle ?? "Card ending in \(card.last4)",
            network: card.network)
    }

    /// The card as the pass library matches it.
    public var identity: CardIdentity { CardIdentity(primaryAccountIdentifier: primaryAccountIdentifier, last4: last4) }

    /// The fields of the add request (Core drops an unknown network).
    public var requestConfiguration: AddPassRequestConfiguration {
        AddPassRequestConfiguration(
            cardholderName: cardholderName, primaryAccountSuffix: last4, localizedDescription: localizedDescription,
            primaryAccountIdentifier: primaryAccountIdentifier, paymentNetwork: network)
    }
}
