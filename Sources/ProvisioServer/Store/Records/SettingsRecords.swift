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
    /// The Provisio dialect's connector URL, or MDES's Customer Service URL.
    public var url: String
    /// The Provisio dialect's API key, sealed; nil for MDES.
    public var apiKeyVaultRecord: String?
    /// `NetworkDialect`'s raw value; nil (rows from before the column) is the Provisio dialect.
    public var dialect: String?
    /// MDES: the OAuth consumer key (an identifier Mastercard issues, not a secret).
    public var oauthConsumerKey: String?
    /// MDES: the OAuth signing key's PEM, sealed.
    public var oauthSigningKeyVaultRecord: String?
    /// MDES: SHA-256 of the signing key's public half, shown instead of the key.
    public var oauthSigningKeyFingerprint: String?
    /// MDES: Mastercard's encryption certificate, PEM. Public, so kept in clear, as the public
    /// halves of the tenant's MDES keys are (`mdes_issuer_keys.public_key_pem`).
    public var mastercardEncryptionCertificatePEM: String?

    public init(
        url: String, apiKeyVaultRecord: String?, dialect: String? = nil, oauthConsumerKey: String? = nil,
        oauthSigningKeyVaultRecord: String? = nil, oauthSigningKeyFingerprint: String? = nil,
        mastercardEncryptionCertificatePEM: String? = nil
    ) {
        self.url = url
        self.apiKeyVaultRecord = apiKeyVaultRecord
        self.dialect = dialect
        self.oauthConsumerKey = oauthConsumerKey
        self.oauthSigningKeyVaultRecord = oauthSigningKeyVaultRecord
        self.oauthSigningKeyFingerprint = oauthSigningKeyFingerprint
        self.mastercardEncryptionCertificatePEM = mastercardEncryptionCertificatePEM
    }

    static func vaultContext(tenantID: String) -> String { "tenant/\(tenantID)/network-api-key" }
    /// Its own context: a sealed API key can never be opened as a signing key, nor the reverse.
    static func signingKeyVaultContext(tenantID: String) -> String { "tenant/\(tenantID)/network-oauth-signing-key" }
}
