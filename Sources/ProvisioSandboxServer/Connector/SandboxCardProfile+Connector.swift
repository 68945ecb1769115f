import ProvisioSandbox
import ProvisioSandboxConnectorAPI

extension SandboxCardProfile {
    /// The profile of a product change on the connector's card details (`card_profile`).
    init(_ profile: Components.Schemas.CardProfile) {
        self.init(
            productID: profile.productId, name: profile.name, appLaunchURL: profile.appLaunchUrl,
            associatedApplicationIdentifiers: profile.associatedApplicationIdentifiers,
            associatedStoreIdentifiers: profile.associatedStoreIdentifiers, contactName: profile.contactName,
            supportPhone: profile.supportPhone, supportEmail: profile.supportEmail, supportURL: profile.supportUrl,
            termsURL: profile.termsUrl, termsVersion: profile.termsVersion, cardArtURL: profile.cardArtUrl)
    }
}
