/// What the issuer's app returns to Google Wallet from app-to-app verification: the result
/// intent's `STEP_UP_RESPONSE` ([POM] `SPEC_A2A.md`, Visa's form; docs/android-wallets.md §4).
///
/// On `approved` the token's activation goes through the network, as Apple's in-app
/// verification does: the app gets activation data (a TAV) from Provisio
/// (`POST /v1/tokens/{id}/activation {"mode": "tav"}`) and returns it with the answer, and Google
/// Wallet hands it to the token service, which verifies it and reports the activation to the
/// issuer. Visa's "option 1", where the issuer's backend activates the token with the network
/// itself and returns no data, is `approved(activationData: nil)`: Google Wallet then reads
/// the token's state from the network. Which of the two Google expects is not public.
public enum GoogleStepUpResponse: Sendable, Hashable {
    /// The cardholder was authenticated; with the issuer's activation data for the network, or
    /// nil when the issuer activated the token with the network itself.
    case approved(activationData: String?)
    /// The cardholder cancelled: nothing is activated.
    case declined
    /// A technical error in the issuer's app.
    case failure

    /// The extra's value.
    public var value: String {
        switch self {
        case .approved: "approved"
        case .declined: "declined"
        case .failure: "failure"
        }
    }
}
