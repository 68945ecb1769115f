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
            cardArtUrl: pass.details.cardArtURL)
    }
}
