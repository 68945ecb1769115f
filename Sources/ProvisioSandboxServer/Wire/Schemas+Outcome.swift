import ProvisioSandbox
import ProvisioSandboxAPI

extension Components.Schemas.Outcome {
    /// What became of a submission at the network, and the pass Wallet added (nil on red).
    package init(_ outcome: NetworkProvisioningOutcome) {
        self.init(
            networkTokenRef: outcome.networkTokenRef, issuerTokenId: outcome.issuerTokenID, decision: .init(outcome.decision),
            reasons: outcome.reasons, activationMethods: outcome.activationMethods,
            pass: outcome.pass.map(Components.Schemas.Pass.init), termsVersion: outcome.awaitingTerms?.version,
            termsUrl: outcome.awaitingTerms?.url)
        activationOffers = outcome.activationOffers.map { .init(method: $0.method, contact: $0.contact) }
    }
}
