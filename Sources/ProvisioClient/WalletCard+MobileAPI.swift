import ProvisioCore
import ProvisioMobileAPI

extension WalletCard {
    /// A card as `GET /v1/mobile/cards` lists it, mapped once here: the title is the issuer's
    /// product title, else "Card ending in …"; a network this client does not know is `.unknown`.
    /// No art reference: the app names the App Group file when it saves the art.
    init(_ wire: Components.Schemas.MobileCard) {
        self.init(
            id: wire.id, primaryAccountIdentifier: wire.primaryAccountIdentifier,
            title: wire.productTitle ?? "Card ending in \(wire.last4)", last4: wire.last4,
            cardholderName: wire.cardholderName, network: PaymentNetwork(rawValue: wire.network.rawValue) ?? .unknown,
            cardArtURL: wire.cardArtUrl)
    }
}
