import ProvisioCore
import ProvisioNetworkAPI

// The network API's values and the sandbox network's, converted once, here, at the edge.

extension Components.Schemas.NetworkTokenRequest {
    /// The body of `POST /v1/network/token-requests`: the only place the funding PAN leaves the
    /// network in clear.
    init(_ request: IssuerDecisionRequest) throws {
        self.init(
            pan: request.primaryAccountNumber.unmaskedDigits, expiryMonth: request.expiry.month,
            expiryYear: request.expiry.year, wallet: try .init(spelling: request.wallet),
            deviceType: try request.deviceType.map { try .init(spelling: $0) }, networkTokenRef: request.networkTokenRef,
            tokenLast4: request.tokenLast4, deviceAccountIdentifier: request.deviceAccountIdentifier,
            risk: .init(
                deviceScore: request.risk.deviceScore, accountScore: request.risk.accountScore,
                walletRecommendation: try .init(spelling: request.risk.walletRecommendation)))
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
    init(_ decision: Components.Schemas.NetworkDecision) throws {
        self.init(
            tokenID: decision.tokenId, outcome: try .init(spelling: decision.decision), reasons: decision.reasons,
            state: decision.state.rawValue, activationMethods: decision.activationMethods?.map(\.rawValue) ?? [])
    }
}
