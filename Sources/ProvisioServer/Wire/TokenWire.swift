import Foundation
import ProvisioCore

/// A token on the wire (and in webhook payloads).
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
    var events: [TokenEventWire]?

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
        case actor, events
    }

    init(_ token: TokenRecord, events: [TokenEventRecord]? = nil) {
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
        self.events = events?.map(TokenEventWire.init)
    }
}

struct TokenEventWire: Codable, Sendable {
    var type: String
    var fromState: String?
    var toState: String
    var actor: String
    var reasonCode: String?
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case type
        case fromState = "from_state"
        case toState = "to_state"
        case actor
        case reasonCode = "reason_code"
        case createdAt = "created_at"
    }

    init(_ event: TokenEventRecord) {
        self.type = event.type
        self.fromState = event.fromState?.rawValue
        self.toState = event.toState.rawValue
        self.actor = event.actor.rawValue
        self.reasonCode = event.reasonCode
        self.createdAt = event.createdAt
    }
}

/// `POST /v1/tokens/{id}/transitions`.
struct TokenTransitionBody: RequestBody {
    static let fields: Set<String> = ["action", "reason_code"]
    var action: String
    var reasonCode: String?

    enum CodingKeys: String, CodingKey {
        case action
        case reasonCode = "reason_code"
    }
}

/// `POST /v1/tokens/{id}/activation`.
struct TokenActivationBody: RequestBody {
    static let fields: Set<String> = ["mode", "reason_code"]
    var mode: String
    var reasonCode: String?

    enum CodingKeys: String, CodingKey {
        case mode
        case reasonCode = "reason_code"
    }
}

/// `POST /v1/network/token-requests`: the card network asks the issuer to decide. Holds a raw
/// PAN: describing it shows only the last four digits.
struct NetworkTokenRequestBody: RequestBody, CustomStringConvertible, CustomReflectable {
    static let fields: Set<String> = [
        "pan", "expiry_month", "expiry_year", "wallet", "device_type", "network_token_ref", "token_last4",
        "device_account_identifier", "risk",
    ]
    static let nestedFields: [String: Set<String>] = ["risk": ["device_score", "account_score", "wallet_recommendation"]]

    struct Risk: Codable {
        var deviceScore: Int
        var accountScore: Int
        var walletRecommendation: String

        enum CodingKeys: String, CodingKey {
            case deviceScore = "device_score"
            case accountScore = "account_score"
            case walletRecommendation = "wallet_recommendation"
        }
    }

    var pan: String
    var expiryMonth: Int
    var expiryYear: Int
    var wallet: String
    var deviceType: String?
    var networkTokenRef: String
    var tokenLast4: String?
    var deviceAccountIdentifier: String?
    var risk: Risk

    enum CodingKeys: String, CodingKey {
        case pan
        case expiryMonth = "expiry_month"
        case expiryYear = "expiry_year"
        case wallet
        case deviceType = "device_type"
        case networkTokenRef = "network_token_ref"
        case tokenLast4 = "token_last4"
        case deviceAccountIdentifier = "device_account_identifier"
        case risk
    }

    var description: String { "NetworkTokenRequestBody(pan: •••• \(pan.suffix(4)), ref: \(networkTokenRef))" }
    var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    func request() throws -> TokenService.TokenRequest {
        guard let recommendation = DecisionOutcome(rawValue: risk.walletRecommendation) else {
            throw ProvisioError(
                .invalidRiskAssessment, "risk.wallet_recommendation must be approve, require_verification or decline.")
        }
        return TokenService.TokenRequest(
            pan: try PrimaryAccountNumber(pan), expiry: try CardExpiry(month: expiryMonth, year: expiryYear),
            wallet: try Wallet(wireName: wallet), deviceType: try deviceType.map(DeviceType.init(wireName:)),
            networkTokenRef: networkTokenRef, tokenLast4: tokenLast4, deviceAccountIdentifier: deviceAccountIdentifier,
            risk: RiskAssessment(
                deviceScore: risk.deviceScore, accountScore: risk.accountScore, walletRecommendation: recommendation))
    }
}

struct NetworkDecisionWire: Encodable {
    var tokenID: String
    var decision: String
    var reasons: [String]
    var state: String
    /// On `require_verification`: how the cardholder can verify.
    var activationMethods: [String]?

    enum CodingKeys: String, CodingKey {
        case tokenID = "token_id"
        case decision, reasons, state
        case activationMethods = "activation_methods"
    }
}

/// `POST /v1/network/tokens/{ref}/events`: the network reports a change it made or saw.
struct NetworkTokenEventBody: RequestBody {
    static let fields: Set<String> = ["event", "reason_code"]
    var event: String
    var reasonCode: String?

    enum CodingKeys: String, CodingKey {
        case event
        case reasonCode = "reason_code"
    }
}

/// `POST /v1/network/tokens/{ref}/otp`: the network's one-time code, for the issuer to deliver.
struct NetworkOTPBody: RequestBody {
    static let fields: Set<String> = ["code", "expires_at"]
    var code: String
    var expiresAt: Date?

    enum CodingKeys: String, CodingKey {
        case code
        case expiresAt = "expires_at"
    }
}

struct OTPChannelsWire: Encodable {
    var channels: [OTPRelay.Channel]
}
