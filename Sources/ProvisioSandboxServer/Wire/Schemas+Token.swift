import ProvisioSandbox
import ProvisioSandboxAPI

extension Components.Schemas.Token {
    /// A network token as the sandbox's API shows it: the last four digits of the token PAN and
    /// nothing of the funding card's number.
    package init(_ token: NetworkToken) {
        self.init(
            networkTokenRef: token.networkTokenRef, issuerTokenId: token.issuerTokenID, state: .init(token.state),
            decision: .init(token.decision), reasons: token.reasons, activationMethods: token.activationMethods,
            tokenLast4: token.tokenPrimaryAccountNumber.last4, device: .init(token.device.kind),
            deviceAccountIdentifier: token.deviceAccountIdentifier, primaryAccountIdentifier: token.primaryAccountIdentifier,
            passSerialNumber: token.passSerialNumber, createdAt: token.createdAt)
    }
}
