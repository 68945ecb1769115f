import Foundation
import ProvisioCore

/// A token in webhook payloads (the API answers with the generated `Components.Schemas.Token`).
struct TokenWire: Codable, Sendable {
    var id: String
    var cardID: String
    var wallet: String
    var deviceType: String?
    /// The network's reference for the token (what its support and reports quote).
    var networkTokenRef: String
    var state: String
    var networkState: String?
    var tokenLast4: String?
    var deviceAccountIdentifier: String?
    var decision: String
    var decisionReasons: [String]
    var createdAt: Date
    var updatedAt: Date
    /// Set in webhook payloads: why and by whom the change happened.
    var reasonCode: String?
    var actor: String?

    enum CodingKeys: String, CodingKey {
        case id
        case cardID = "card_id"
        case wallet
        case deviceType = "device_type"
        case networkTokenRef = "network_token_ref"
        case state
        case networkState = "network_state"
        case tokenLast4 = "token_last4"
        case deviceAccountIdentifier = "device_account_identifier"
        case decision
        case decisionReasons = "decision_reasons"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case reasonCode = "reason_code"
        case actor
    }

    init(_ token: TokenRecord) {
        self.id = token.id
        self.cardID = token.cardID
        self.wallet = token.wallet.rawValue
        self.deviceType = token.deviceType?.rawValue
        self.networkTokenRef = token.networkTokenRef
        self.state = token.state.rawValue
        self.networkState = token.networkState
        self.tokenLast4 = token.tokenLast4
        self.deviceAccountIdentifier = token.deviceAccountIdentifier
        self.decision = token.decision.rawValue
        self.decisionReasons = token.decisionReasons
        self.createdAt = token.createdAt
        self.updatedAt = token.updatedAt
    }
}
