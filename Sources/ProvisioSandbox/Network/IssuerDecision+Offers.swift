import ProvisioNetworkAPI

extension IssuerDecision {
    /// Provisio's decision with its offers: what Wallet shows for each method before a code is
    /// sent (the masked contacts, the number to call).
    init(withOffers decision: Components.Schemas.NetworkDecision) {
        self.init(decision)
        activationOffers = (decision.activationOffers ?? []).map {
            SandboxActivationOffer(method: $0.method.rawValue, contact: $0.contact)
        }
    }
}
