import ProvisioCore
import ProvisioMobileAPI

/// The generated card is what `WalletCard` maps from (`WalletCard.Listing`, in ProvisioCore); its
/// fields match the protocol's by name, so a new one needs nothing here.
extension Components.Schemas.MobileCard: WalletCard.Listing {
    package var networkName: String { network.rawValue }
}

extension WalletCard {
    /// A card as `GET /v1/mobile/cards` lists it.
    init(_ wire: Components.Schemas.MobileCard) {
        self.init(listing: wire)
    }
}
