import ProvisioCore
import ProvisioNetworkAPI

// The network API's values and the sandbox network's, converted once, here, at the edge.

extension Components.Schemas.NetworkTokenRequest {
    /// The body of `POST /v1/network/token-requests`: the only place the funding PAN leaves the
    /// network in clear.
    init(_ request: IssuerDecisionRequest) {
        self.init(
            pan: request.primaryAccountNumber.unmaskedDigits, expiryMonth: request.expiry.month,
            expiryYear: request.expiry.year, wallet: .init(request.wallet),
            deviceType: request.deviceType.map(Components.Schemas.DeviceType.init), networkTokenRef: request.networkTokenRef,
            tokenLast4: request.tokenLast4, deviceAccountIdentifier: request.deviceAccountIdentifier,
            risk: .init(
                deviceScore: request.risk.deviceScore, accountScore: request.risk.accountScore,
                walletRecommendation: .init(request.risk.walletRecommendation)))
    }
}

// Describing the request (a log line, the generated code's `ClientError`, which quotes the
// operation's input) shows the card's last four digits only.
extension Components.Schemas.NetworkTokenRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "token request \(networkTokenRef) for •••• \(pan.suffix(4))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

extension IssuerDecision {
    init(_ decision: Components.Schemas.NetworkDecision) {
        self.init(
            tokenID: decision.tokenId, outcome: .init(decision.decision), reasons: decision.reasons,
            state: decision.state.rawValue, activationMethods: decision.activationMethods?.map(\.rawValue) ?? [],
            profile: decision.cardProfile.map(SandboxCardProfile.init))
    }
}
