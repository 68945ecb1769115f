import Foundation
import ProvisioCore
import ProvisioCrypto

/// The optional synchronous issuer decision webhook: when a tenant's endpoint subscribes to
/// `token.decision_requested` by name (never through `*`, since an endpoint that does not
/// expect to decide would only slow every add down), the issuer's own systems decide each new
/// token, seeing the rules' proposal. No usable answer within the tenant's timeout means the
/// tenant's configured default decision.
public struct IssuerDecisionHook: Sendable {
    static let eventType = "token.decision_requested"

    let webhook: SynchronousWebhook

    init(store: any WebhookStore, vault: PANVault, sender: any WebhookSender, clock: any TimeSource) {
        self.webhook = SynchronousWebhook(store: store, vault: vault, sender: sender, clock: clock)
    }

    struct Answer {
        var decision: DecisionOutcome
        var reasons: [String]?
    }

    /// The issuer's decision, the default when it gave none in time, or nil when no endpoint
    /// asks to decide (the rules' proposal stands).
    func decide(
        request: TokenService.TokenRequest, card: CardRecord, proposed: Decision, settings: DecisioningSettings,
        tenantID: String
    ) async throws -> Decision? {
        let endpoints = try await webhook.store.webhookEndpoints(tenantID: tenantID).filter {
            $0.events.contains(Self.eventType)
        }
        guard !endpoints.isEmpty else { return nil }
        let message = WebhookMessage.decisionRequested(
            .init(
                networkTokenRef: request.networkTokenRef, wallet: request.wallet, deviceType: request.deviceType,
                tokenLast4: request.tokenLast4, card: card, risk: request.risk, proposed: proposed))
        let result = try await webhook.call(
            message, tenantID: tenantID, endpoints: endpoints.reversed(),
            timeout: .milliseconds(settings.webhookTimeoutMilliseconds), parse: Self.parse)
        if let answer = result.answer {
            let reasons = answer.reasons ?? []
            return Decision(outcome: answer.decision, reasons: ["issuer_decided"] + reasons)
        }
        return Decision(
            outcome: settings.webhookDefaultDecision,
            reasons: [result.timedOut ? "issuer_decision_timeout" : "issuer_decision_unavailable", "default_decision"])
    }

    /// 1 to 64 of `a-z`, `0-9`, `_`: reasons are codes, not prose (they are stored and shown).
    static func isReasonCode(_ value: String) -> Bool {
        (1...64).contains(value.count)
            && value.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// `{"decision": "approve|require_verification|decline", "reasons": ["snake_case", …]}`.
    static func parse(_ body: Data) throws -> Answer {
        guard let decoded = try? WebhookMessage.issuerDecision(from: body) else { throw Self.malformedAnswer }
        let answer = Answer(decision: decoded.outcome, reasons: decoded.reasons)
        guard (answer.reasons ?? []).count <= 10,
            (answer.reasons ?? []).allSatisfy(isReasonCode)
        else { throw Self.malformedAnswer }
        return answer
    }

    static var malformedAnswer: ProvisioError {
        ProvisioError(
            .invalidParameter,
            "The issuer's answer is not {\"decision\": approve|require_verification|decline, \"reasons\": [snake_case…]}.")
    }
}
