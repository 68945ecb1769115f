import Foundation
import ProvisioCore
import ProvisioCrypto

/// A tenant's settings: its decisioning (rules, decision-webhook timeout and default) and the
/// card network its tokens live at. Secrets are sealed in the vault and never read back out.
public struct SettingsService: Sendable {
    let store: any SettingsStore
    let vault: PANVault
    let connectors: NetworkConnectorResolver
    let clock: any TimeSource

    public init(store: any SettingsStore, vault: PANVault, connectors: NetworkConnectorResolver, clock: any TimeSource) {
        self.store = store
        self.vault = vault
        self.connectors = connectors
        self.clock = clock
    }

    /// What applies now: the tenant's own, or the standard.
    public func decisioning(tenantID: String) async throws -> DecisioningSettings {
        try await store.decisioning(tenantID: tenantID) ?? .standard
    }

    /// Applies the given changes over what applies now, validates the result and stores it.
    public func updateDecisioning(tenantID: String, _ change: (inout DecisioningSettings) -> Void) async throws
        -> DecisioningSettings
    {
        var settings = try await decisioning(tenantID: tenantID)
        change(&settings)
        try settings.validate()
        try await store.saveDecisioning(settings, tenantID: tenantID, at: clock.now())
        return settings
    }

    /// The issuer's own activation methods: what the tenant set, or none.
    public func activationMethods(tenantID: String) async throws -> ActivationMethodSettings {
        try await store.activationMethods(tenantID: tenantID)
    }

    /// Replaces the tenant's activation methods, each checked first.
    public func setActivationMethods(_ settings: ActivationMethodSettings, tenantID: String) async throws {
        try settings.validate()
        try await store.saveActivationMethods(settings, tenantID: tenantID, at: clock.now())
    }

    /// The network connection in force and where it comes from (`tenant`, `server`), or nil.
    public func network(tenantID: String) async throws -> (NetworkEndpoint, source: String)? {
        try await connectors.endpoint(tenantID: tenantID)
    }

    /// Checks a connector URL a tenant wants to set against the outbound policy.
    public func validateNetworkURL(_ url: String, field: String = "url") throws {
        _ = try connectors.outbound.validate(url)
        // Stored in clear and shown back: never a card number.
        try CardService.refuseCardNumber(in: url, field: field)
    }

    /// Mastercard's encryption certificate a tenant wants to set: readable, RSA of 2048 to 4096
    /// bits, and not expired now (`mastercard_encryption_certificate_invalid`).
    public func mastercardCertificate(pem: String) throws -> MastercardEncryptionCertificate {
        let certificate = try MastercardEncryptionCertificate(pem: pem)
        try certificate.requireCurrent(at: clock.now())
        return certificate
    }

    /// Sets the tenant's own network connection (nil returns to the server's). The URL must
    /// pass the outbound policy now; its address is checked again on every call. Secrets (the
    /// API key, MDES's signing key) are sealed, each under its own context.
    public func setNetwork(_ endpoint: NetworkEndpoint?, tenantID: String) async throws {
        if let endpoint { try validateNetworkURL(endpoint.url) }
        let record = try endpoint.map { endpoint in
            guard let oauth = endpoint.oauth else {
                return NetworkConnectionRecord(
                    url: endpoint.url,
                    apiKeyVaultRecord: try vault.seal(
                        secret: Data(endpoint.apiKey.utf8), context: NetworkConnectionRecord.vaultContext(tenantID: tenantID)
                    ).serialized, dialect: endpoint.dialect.rawValue)
            }
            return NetworkConnectionRecord(
                url: endpoint.url, apiKeyVaultRecord: nil, dialect: endpoint.dialect.rawValue,
                oauthConsumerKey: oauth.consumerKey,
                oauthSigningKeyVaultRecord: try vault.seal(
                    secret: Data(oauth.signingKey.pemRepresentation.utf8),
                    context: NetworkConnectionRecord.signingKeyVaultContext(tenantID: tenantID)
                ).serialized,
                oauthSigningKeyFingerprint: oauth.signingKey.publicKeyFingerprint,
                mastercardEncryptionCertificatePEM: endpoint.mastercardEncryptionCertificate?.pemRepresentation)
        }
        try await store.saveNetworkConnection(record, tenantID: tenantID, at: clock.now())
    }
}
