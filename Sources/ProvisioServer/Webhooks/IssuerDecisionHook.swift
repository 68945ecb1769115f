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

    struct Payload: Encodable {
        var networkTokenRef: String
        var wallet: String
        var deviceType: String?
        var tokenLast4: String?
        var card: OTPRelay.CardSummary
        var risk: RiskAssessment
        var proposed: Decision

        enum CodingKeys: String, CodingKey {
            case wallet, card, risk, proposed
            case networkTokenRef = "network_token_ref"
            case deviceType = "device_type"
            case tokenLast4 = "token_last4"
        }
    }

    struct Answer: Decodable {
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
        let payload = Payload(
            networkTokenRef: request.networkTokenRef, wallet: request.wallet.rawValue, deviceType: request.deviceType?.rawValue,
            tokenLast4: request.tokenLast4,
            card: OTPRelay.CardSummary(id: card.id, last4: card.last4, customerRef: card.customerRef),
            risk: request.risk,
            proposed: proposed)
        let result = try await webhook.call(
            type: Self.eventType, data: payload, stored: payload, tenantID: tenantID, endpoints: endpoints.reversed(),
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
        guard (try? StrictJSONParser.parse(body)) != nil, let answer = try? JSONDecoder().decode(Answer.self, from: body),
            (answer.reasons ?? []).count <= 10,
            (answer.reasons ?? []).allSatisfy(isReasonCode)
        else {
            throw ProvisioError(
                .invalidParameter,
                "The issuer's answer is not {\"decision\": approve|require_verification|decline, \"reasons\": [snake_case…]}.")
        }
        return answer
    }
}
