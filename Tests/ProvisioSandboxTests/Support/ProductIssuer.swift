import Foundation
import ProvisioCore
import ProvisioSandbox

/// An issuer whose token decisions carry a card product's profile, as Provisio's do for a card
/// with a product (`card_profile`): green or yellow on demand, and the events it was told.
final class ProductIssuer: IssuerLink, Sendable {
    struct State: Sendable {
        var outcome: DecisionOutcome = .approve
        var profile: SandboxCardProfile?
        var events: [NetworkTokenEvent] = []
    }

    let state: Locked<State>

    init(profile: SandboxCardProfile?, outcome: DecisionOutcome = .approve) {
        self.state = Locked(State(outcome: outcome, profile: profile))
    }

    func makeTokenReference() -> String { "sbx_ntr_" + UUID().uuidString.lowercased() }

    func requestDecision(_ request: IssuerDecisionRequest) async throws -> IssuerDecision {
        let state = self.state.value
        let yellow = state.outcome == .requireVerification
        return IssuerDecision(
            tokenID: "tok_\(request.networkTokenRef)", outcome: state.outcome, reasons: yellow ? ["risk_yellow"] : [],
            state: yellow ? "pending_verification" : "active", activationMethods: yellow ? ["app_to_app", "otp_sms"] : [],
            profile: state.profile)
    }

    func report(event: NetworkTokenEvent, reasonCode: String?, token: NetworkToken) async throws {
        state.withLock { $0.events.append(event) }
    }

    func relayOTP(_ otp: SandboxOTP, token: NetworkToken) async throws -> [IssuerConnection.OTPChannel] { [] }

    var checksActivationCodes: Bool { false }

    func checkActivationCode(_ code: String, token: NetworkToken) async throws -> ActivationCodeVerdict { .incorrect }
}
