/// What the issuer's app answers Samsung Wallet after app-to-app identity verification.
///
/// Samsung's pages do not name the result extras; these follow the `STEP_UP_RESPONSE` values
/// (`accepted`, `declined`, `failure`, `appNotReady`) and `ACTIVATION_CODE` found in third-party
/// code (docs/samsung-wallet.md): an assumption. Samsung describes two ways to finish: the bank
/// activates the token itself through the TSP (`accepted` with no code), or returns an
/// authorization code that Samsung Wallet hands to the TSP (`accepted` with a code). In the
/// sandbox that code is Provisio's activation data (a TAV, `POST /v1/tokens/{id}/activation
/// {mode: tav}`), which the network checks with `verifyActivationData`, as on Apple's path.
public enum SamsungAppToAppResult: Sendable, Hashable {
    case accepted(activationCode: String?)
    case declined
    case failure
    case appNotReady

    /// The `STEP_UP_RESPONSE` word.
    public var stepUpResponse: String {
        switch self {
        case .accepted: "accepted"
        case .declined: "declined"
        case .failure: "failure"
        case .appNotReady: "appNotReady"
        }
    }
}
