import Foundation
import ProvisioCore

/// What one webhook tells the issuer, in Provisio's own terms. The services say what happened;
/// `WebhookMessage+Wire.swift` alone writes it as the body the document's `webhooks:` section
/// describes, through the generated types.
enum WebhookMessage: Sendable {
    /// A token changed (`token.created`, `token.suspended`, …): the token after the change.
    case tokenChanged(TokenRecord, type: String, reasonCode: String?, actor: TokenActor)
    /// A one-time code to send to the cardholder (synchronous). `code` is nil in the stored copy;
    /// `details` name the challenge, the chosen channel and its masked destination, the device
    /// and the token requestor (never a clear contact).
    case otpRequested(token: TokenRecord, card: CardRecord, code: String?, expiresAt: Date, details: OTPRequestDetails)
    /// A new token for the issuer to decide (synchronous, opt-in), with the rules' proposal.
    case decisionRequested(DecisionRequest)
    /// The network saw something odd about a token (MDES `notifySuspiciousEvents`); informational.
    case suspiciousActivity(TokenRecord, events: [String], networkStatus: String?)
    /// A test event for one endpoint.
    case test(endpointID: String)

    /// What the issuer is asked to decide.
    struct DecisionRequest: Sendable {
        var networkTokenRef: String
        var wallet: Wallet
        var deviceType: DeviceType?
        var tokenLast4: String?
        var card: CardRecord
        var risk: RiskAssessment
        var proposed: Decision
    }

    /// The event type, as endpoints subscribe to it.
    var type: String {
        switch self {
        case .tokenChanged(_, let type, _, _): type
        case .otpRequested: "token.otp_requested"
        case .decisionRequested: "token.decision_requested"
        case .suspiciousActivity: "token.suspicious_activity"
        case .test: "webhook.test"
        }
    }

    /// The copy to store: without the one-time code, which never rests in the database.
    var withoutSecrets: WebhookMessage {
        guard case .otpRequested(let token, let card, _, let expiresAt, let details) = self else { return self }
        return .otpRequested(token: token, card: card, code: nil, expiresAt: expiresAt, details: details)
    }
}
