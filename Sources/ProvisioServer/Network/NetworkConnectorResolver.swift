import Foundation
import ProvisioCore
import ProvisioCrypto

/// Finds the connector for a tenant: its own network connection when it set one, else the
/// server's (`--network-url`, the sandbox in development), else a clear 503.
public struct NetworkConnectorResolver: Sendable {
    let store: any SettingsStore
    let vault: PANVault
    let serverDefault: NetworkEndpoint?
    let makeConnector: @Sendable (NetworkEndpoint) -> any NetworkConnector

    public init(
        store: any SettingsStore, vault: PANVault, serverDefault: NetworkEndpoint?,
        makeConnector: @escaping @Sendable (NetworkEndpoint) -> any NetworkConnector = {
            HTTPNetworkConnector(baseURL: $0.url, apiKey: $0.apiKey)
        }
    ) {
        self.store = store
        self.vault = vault
        self.serverDefault = serverDefault
        self.makeConnector = makeConnector
    }

    /// Which endpoint applies and where it came from (`tenant` or `server`).
    public func endpoint(tenantID: String) async throws -> (NetworkEndpoint, source: String)? {
        if let own = try await store.networkConnection(tenantID: tenantID) {
            let key = try vault.openSecret(
                VaultRecord(serialized: own.apiKeyVaultRecord), context: NetworkConnectionRecord.vaultContext(tenantID: tenantID))
            return (try NetworkEndpoint(url: own.url, apiKey: String(decoding: key, as: UTF8.self)), "tenant")
        }
        return serverDefault.map { ($0, "server") }
    }

    public func connector(tenantID: String) async throws -> any NetworkConnector {
        guard let (endpoint, _) = try await endpoint(tenantID: tenantID) else {
            throw ProvisioError(
                .networkConnectorNotConfigured,
                "No card network is configured: PUT /v1/settings/network, or start the server with --network-url.")
        }
        return makeConnector(endpoint)
    }
}
