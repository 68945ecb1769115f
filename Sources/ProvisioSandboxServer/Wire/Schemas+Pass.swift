import ProvisioSandbox
import ProvisioSandboxAPI

extension Components.Schemas.Pass {
    /// A pass in Wallet, with what PassKit's `PKSecureElementPass` shows the issuer app: the
    /// card's last four digits, never its number.
    package init(_ pass: SandboxPass) {
        self.init(
            serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
            primaryAccountIdentifier: pass.primaryAccountIdentifier, primaryAccountNumberSuffix: pass.primaryAccountNumberSuffix,
            deviceAccountIdentifier: pass.deviceAccountIdentifier, activationState: .init(pass.activationState),
            device: .init(pass.deviceKind), expiry: pass.details.expiry?.slashed, cardholderName: pass.details.cardholderName,
            cardArtUrl: pass.details.cardArtURL, productTitle: pass.details.productTitle,
            cardProfile: pass.profile.map(Components.Schemas.CardProfile.init))
    }
}

extension Components.Schemas.CardProfile {
    /// The card product's profile on a pass, as the issuer last gave it.
    package init(_ profile: SandboxCardProfile) {
        self.init(
            productId: profile.productID, name: profile.name, appLaunchUrl: profile.appLaunchURL,
            associatedApplicationIdentifiers: profile.associatedApplicationIdentifiers,
            associatedStoreIdentifiers: profile.associatedStoreIdentifiers, contactName: profile.contactName,
            supportPhone: profile.supportPhone, supportEmail: profile.supportEmail, supportUrl: profile.supportURL,
            termsUrl: profile.termsURL, termsVersion: profile.termsVersion, cardArtUrl: profile.cardArtURL)
    }
}
