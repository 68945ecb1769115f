import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioNetworkConnector
import Testing

@testable import ProvisioServer

/// The migration that gives tenant settings a dialect keeps a connection set before it: the
/// row has no dialect, and reads as the Provisio dialect with its key.
@Suite struct NetworkDialectMigrationTests {
    static var version: Int {
        SchemaMigrations.all.first { $0.name == "tenant_settings_network_dialect" }?.version ?? 0
    }

    @Test(arguments: TestEngine.available)
    func aConnectionSetBeforeTheMigrationStaysTheProvisioDialect(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine, schemaVersion: Self.version - 1) { database in
            let store = SQLProvisioStore(handle: database.handle)
            let tenantID = try await AccessService(store: store, clock: TestClock()).createTenant(name: "A").tenant.id
            let vault = PANVault(keyring: ProvisioKeys.generate().keyring)
            let sealed = try vault.seal(
                secret: Data("prv_connector_key_1".utf8), context: NetworkConnectionRecord.vaultContext(tenantID: tenantID))
            // Written as the server before the migration wrote it: its columns only.
            try await database.handle.write { sql in
                try await sql.raw(
                    """
                    INSERT INTO tenant_settings (tenant_id, network_url, network_api_key_vault_record, updated_at)
                    VALUES (\(bind: tenantID), 'https://network.example/connector', \(bind: sealed.serialized), 1)
                    """
                ).run()
            }

            // This migration, then whatever later ones exist.
            let applied = try await Migrator(handle: database.handle).migrate()
            #expect(applied.first == Self.version)
            let record = try #require(try await store.networkConnection(tenantID: tenantID))
            #expect(record.dialect == nil && record.oauthSigningKeyVaultRecord == nil)
            let resolver = NetworkConnectorResolver(
                store: store, vault: vault, serverDefault: nil, outbound: OutboundHTTPClient(policy: .development))
            let (endpoint, source) = try #require(try await resolver.endpoint(tenantID: tenantID))
            #expect(source == "tenant" && endpoint.dialect == .provisio && endpoint.oauth == nil)
            #expect(endpoint.url == "https://network.example/connector" && endpoint.apiKey == "prv_connector_key_1")
            #expect(try await resolver.connector(tenantID: tenantID).dialect == .provisio)
        }
    }
}
