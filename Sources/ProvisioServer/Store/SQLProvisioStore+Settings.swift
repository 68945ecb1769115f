import Foundation
import ProvisioCore
import SQLKit

extension SQLProvisioStore: SettingsStore {
    public func decisioning(tenantID: String) async throws -> DecisioningSettings? {
        let json = try await handle.read { database in
            try await database.raw("SELECT decisioning FROM tenant_settings WHERE tenant_id = \(bind: tenantID)").first()
                .flatMap { try $0.decodeNil(column: "decisioning") ? nil : $0.decode(column: "decisioning", as: String.self) }
        }
        guard let json else { return nil }
        return try JSONDecoder().decode(DecisioningSettings.self, from: Data(json.utf8))
    }

    public func saveDecisioning(_ settings: DecisioningSettings, tenantID: String, at time: Date) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(settings), as: UTF8.self)
        try await handle.transaction { database in
            // One statement, so two processes saving at once cannot lose the row.
            try await database.raw(
                """
                INSERT INTO tenant_settings (tenant_id, decisioning, updated_at)
                VALUES (\(bind: tenantID), \(bind: json), \(bind: time.epochMilliseconds))
                ON CONFLICT (tenant_id) DO UPDATE SET decisioning = excluded.decisioning, updated_at = excluded.updated_at
                """
            ).run()
            try await Self.audit(
                AuditChange("settings.decisioning.updated", target: "tenant", tenantID), tenantID: tenantID, at: time,
                in: database)
        }
    }

    public func networkConnection(tenantID: String) async throws -> NetworkConnectionRecord? {
        try await handle.read { database in
            guard
                let row = try await database.raw(
                    """
                    SELECT network_url, network_api_key_vault_record, network_dialect, network_oauth_consumer_key,
                        network_oauth_signing_key_vault_record, network_oauth_signing_key_fingerprint,
                        network_mastercard_encryption_certificate
                    FROM tenant_settings WHERE tenant_id = \(bind: tenantID)
                    """
                ).first(),
                let url = try row.decode(column: "network_url", as: String?.self)
            else { return nil }
            return NetworkConnectionRecord(
                url: url, apiKeyVaultRecord: try row.decode(column: "network_api_key_vault_record", as: String?.self),
                dialect: try row.decode(column: "network_dialect", as: String?.self),
                oauthConsumerKey: try row.decode(column: "network_oauth_consumer_key", as: String?.self),
                oauthSigningKeyVaultRecord: try row.decode(column: "network_oauth_signing_key_vault_record", as: String?.self),
                oauthSigningKeyFingerprint: try row.decode(column: "network_oauth_signing_key_fingerprint", as: String?.self),
                mastercardEncryptionCertificatePEM: try row.decode(
                    column: "network_mastercard_encryption_certificate", as: String?.self))
        }
    }

    public func saveNetworkConnection(_ connection: NetworkConnectionRecord?, tenantID: String, at time: Date) async throws {
        try await handle.transaction { database in
            // Every column of the connection at once: a change of dialect leaves nothing of the other.
            try await database.raw(
                """
                INSERT INTO tenant_settings (tenant_id, network_url, network_api_key_vault_record, network_dialect,
                    network_oauth_consumer_key, network_oauth_signing_key_vault_record, network_oauth_signing_key_fingerprint,
                    network_mastercard_encryption_certificate, updated_at)
                VALUES (\(bind: tenantID), \(bind: connection?.url), \(bind: connection?.apiKeyVaultRecord),
                    \(bind: connection?.dialect), \(bind: connection?.oauthConsumerKey),
                    \(bind: connection?.oauthSigningKeyVaultRecord), \(bind: connection?.oauthSigningKeyFingerprint),
                    \(bind: connection?.mastercardEncryptionCertificatePEM), \(bind: time.epochMilliseconds))
                ON CONFLICT (tenant_id) DO UPDATE SET network_url = excluded.network_url,
                    network_api_key_vault_record = excluded.network_api_key_vault_record,
                    network_dialect = excluded.network_dialect,
                    network_oauth_consumer_key = excluded.network_oauth_consumer_key,
                    network_oauth_signing_key_vault_record = excluded.network_oauth_signing_key_vault_record,
                    network_oauth_signing_key_fingerprint = excluded.network_oauth_signing_key_fingerprint,
                    network_mastercard_encryption_certificate = excluded.network_mastercard_encryption_certificate,
                    updated_at = excluded.updated_at
                """
            ).run()
            let action = connection == nil ? "settings.network.cleared" : "settings.network.updated"
            try await Self.audit(AuditChange(action, target: "tenant", tenantID), tenantID: tenantID, at: time, in: database)
        }
    }
}
