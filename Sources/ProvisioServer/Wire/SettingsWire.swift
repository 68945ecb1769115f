import Foundation
import ProvisioCore

/// `GET /v1/settings/decisioning` and the answer to `PUT`.
struct DecisioningWire: Encodable {
    var minimumDeviceScore: Int
    var minimumAccountScore: Int
    var declineAtOrBelowScore: Int
    var followWalletYellow: Bool
    var followWalletRed: Bool
    var webhookTimeoutMilliseconds: Int
    var webhookDefaultDecision: String

    init(_ settings: DecisioningSettings) {
        minimumDeviceScore = settings.rules.minimumDeviceScore
        minimumAccountScore = settings.rules.minimumAccountScore
        declineAtOrBelowScore = settings.rules.declineAtOrBelowScore
        followWalletYellow = settings.rules.followWalletYellow
        followWalletRed = settings.rules.followWalletRed
        webhookTimeoutMilliseconds = settings.webhookTimeoutMilliseconds
        webhookDefaultDecision = settings.webhookDefaultDecision.rawValue
    }

    enum CodingKeys: String, CodingKey {
        case minimumDeviceScore = "minimum_device_score"
        case minimumAccountScore = "minimum_account_score"
        case declineAtOrBelowScore = "decline_at_or_below_score"
        case followWalletYellow = "follow_wallet_yellow"
        case followWalletRed = "follow_wallet_red"
        case webhookTimeoutMilliseconds = "webhook_timeout_ms"
        case webhookDefaultDecision = "webhook_default_decision"
    }
}

/// `PUT /v1/settings/decisioning`: any subset of the fields; the others keep their values.
struct DecisioningBody: RequestBody {
    static let fields: Set<String> = [
        "minimum_device_score", "minimum_account_score", "decline_at_or_below_score", "follow_wallet_yellow",
        "follow_wallet_red", "webhook_timeout_ms", "webhook_default_decision",
    ]
    var minimumDeviceScore: Int?
    var minimumAccountScore: Int?
    var declineAtOrBelowScore: Int?
    var followWalletYellow: Bool?
    var followWalletRed: Bool?
    var webhookTimeoutMilliseconds: Int?
    var webhookDefaultDecision: DecisionOutcome?

    typealias CodingKeys = DecisioningWire.CodingKeys

    func apply(to settings: inout DecisioningSettings) {
        if let minimumDeviceScore { settings.rules.minimumDeviceScore = minimumDeviceScore }
        if let minimumAccountScore { settings.rules.minimumAccountScore = minimumAccountScore }
        if let declineAtOrBelowScore { settings.rules.declineAtOrBelowScore = declineAtOrBelowScore }
        if let followWalletYellow { settings.rules.followWalletYellow = followWalletYellow }
        if let followWalletRed { settings.rules.followWalletRed = followWalletRed }
        if let webhookTimeoutMilliseconds { settings.webhookTimeoutMilliseconds = webhookTimeoutMilliseconds }
        if let webhookDefaultDecision { settings.webhookDefaultDecision = webhookDefaultDecision }
    }
}

/// `GET /v1/settings/network`: the connection in force; the API key never comes back.
struct NetworkSettingsWire: Encodable {
    var url: String?
    /// `tenant` (set with PUT), `server` (the server's `--network-url`) or `none`.
    var source: String
}

/// `PUT /v1/settings/network`.
struct NetworkSettingsBody: RequestBody {
    static let fields: Set<String> = ["url", "api_key"]
    var url: String
    var apiKey: String

    enum CodingKeys: String, CodingKey {
        case url
        case apiKey = "api_key"
    }
}
