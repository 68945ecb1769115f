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

    /// The network connection in force and where it comes from (`tenant`, `server`), or nil.
    public func network(tenantID: String) async throws -> (url: String, source: String)? {
        try await connectors.endpoint(tenantID: tenantID).map { ($0.0.url, $0.source) }
    }

    /// Checks a connector URL a tenant wants to set against the outbound policy.
    public func validateNetworkURL(_ url: String) throws {
        _ = try connectors.outbound.validate(url)
        // Stored in clear and shown back: never a card number.
        try CardService.refuseCardNumber(in: url, field: "url")
    }

    /// Sets the tenant's own network connection (nil returns to the server's). The URL must
    /// pass the outbound policy now; its address is checked again on every call.
    public func setNetwork(_ endpoint: NetworkEndpoint?, tenantID: String) async throws {
        if let endpoint { try validateNetworkURL(endpoint.url) }
        let record = try endpoint.map {
            NetworkConnectionRecord(
                url: $0.url,
                apiKeyVaultRecord: try vault.seal(
                    secret: Data($0.apiKey.utf8), context: NetworkConnectionRecord.vaultContext(tenantID: tenantID)
                ).serialized)
        }
        try await store.saveNetworkConnection(record, tenantID: tenantID, at: clock.now())
    }
}
