import Foundation
import ProvisioCore

/// A tenant's decisioning: its rules, and how long the issuer decision webhook may take and
/// what applies when it does not answer in time.
public struct DecisioningSettings: Sendable, Equatable, Codable {
    public var rules: DecisionRules
    public var webhookTimeoutMilliseconds: Int
    public var webhookDefaultDecision: DecisionOutcome

    /// The standard rules; the webhook gets two seconds and falls back to asking the
    /// cardholder to verify (neither a blind approval nor a lost customer).
    public static let standard = DecisioningSettings(
        rules: .standard, webhookTimeoutMilliseconds: 2000, webhookDefaultDecision: .requireVerification)

    /// The network waits for the decision: the webhook must answer well within its patience.
    public static let timeoutRange = 100...5000

    public init(rules: DecisionRules, webhookTimeoutMilliseconds: Int, webhookDefaultDecision: DecisionOutcome) {
        self.rules = rules
        self.webhookTimeoutMilliseconds = webhookTimeoutMilliseconds
        self.webhookDefaultDecision = webhookDefaultDecision
    }

    public func validate() throws {
        try rules.validate()
        guard Self.timeoutRange.contains(webhookTimeoutMilliseconds) else {
            throw ProvisioError(
                .invalidParameter,
                "webhook.timeout_ms must be between \(Self.timeoutRange.lowerBound) and \(Self.timeoutRange.upperBound).")
        }
    }
}

/// Where a tenant's card network listens for lifecycle commands; the API key is sealed in the
/// vault like every other secret.
public struct NetworkConnectionRecord: Sendable, Equatable {
    public var url: String
    public var apiKeyVaultRecord: String

    static func vaultContext(tenantID: String) -> String { "tenant/\(tenantID)/network-api-key" }
}
