import Foundation
import ProvisioAPI

/// The `data` of Provisio's webhooks other than `token.*` (which carry the document's `Token`).
enum WebhookPayload {
    /// `webhook.test`.
    struct Test: Decodable, Sendable {
        let endpointID: String

        enum CodingKeys: String, CodingKey {
            case endpointID = "endpoint_id"
        }
    }

    /// The card a synchronous webhook is about, without its number.
    struct CardSummary: Decodable, Sendable {
        let id: String
        let last4: String
        let customerRef: String

        enum CodingKeys: String, CodingKey {
            case id, last4
            case customerRef = "customer_ref"
        }
    }

    /// `token.otp_requested`: the code to send, for the token pending verification.
    struct OTPRequested: Decodable, Sendable {
        let token: Components.Schemas.Token
        let card: CardSummary
        let code: String
        let expiresAt: Date

        enum CodingKeys: String, CodingKey {
            case token, card, code
            case expiresAt = "expires_at"
        }
    }

    /// `token.decision_requested`: the network's request, its risk and the rules' proposal.
    struct DecisionRequested: Decodable, Sendable {
        struct Proposal: Decodable, Sendable {
            let outcome: Components.Schemas.DecisionOutcome
            let reasons: [String]
        }

        let networkTokenRef: String
        let wallet: Components.Schemas.Wallet
        let deviceType: Components.Schemas.DeviceType?
        let tokenLast4: String?
        let card: CardSummary
        let risk: Components.Schemas.NetworkTokenRequest.RiskPayload
        let proposed: Proposal

        enum CodingKeys: String, CodingKey {
            case wallet, card, risk, proposed
            case networkTokenRef = "network_token_ref"
            case deviceType = "device_type"
            case tokenLast4 = "token_last4"
        }
    }
}
