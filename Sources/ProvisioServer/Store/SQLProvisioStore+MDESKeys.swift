import Foundation
import ProvisioCore
import SQLKit

extension SQLProvisioStore: MDESKeyStore {
    public func mdesIssuerKeys(tenantID: String) async throws -> [MDESIssuerKeyRecord] {
        try await handle.read { database in
            try await Self.mdesIssuerKeys(tenantID: tenantID, in: database)
        }
    }

    public func addMDESIssuerKey(_ key: MDESIssuerKeyRecord, onlyIfNoneLive: Bool) async throws -> MDESIssuerKeyRecord {
        try await handle.transaction { database in
            try await lockTenant(key.tenantID, in: database)
            let live = try await Self.mdesIssuerKeys(tenantID: key.tenantID, in: database).filter { $0.retiredAt == nil }
            if onlyIfNoneLive, let newest = live.first { return newest }
            try await database.raw(
                """
                INSERT INTO mdes_issuer_keys (tenant_id, fingerprint, key_size, public_key_pem, private_key_vault_record,
                    created_at)
                VALUES (\(bind: key.tenantID), \(bind: key.fingerprint), \(bind: key.keySize), \(bind: key.publicKeyPEM),
                    \(bind: key.privateKeyVaultRecord), \(bind: key.createdAt.epochMilliseconds))
                """
            ).run()
            try await Self.audit(
                AuditChange("mdes_key.created", target: "mdes_key", key.fingerprint, reason: "RSA \(key.keySize)"),
                tenantID: key.tenantID, at: key.createdAt, in: database)
            return key
        }
    }

    public func retireMDESIssuerKey(tenantID: String, fingerprint: String, at time: Date) async throws
        -> MDESIssuerKeyRecord
    {
        try await handle.transaction { database in
            try await lockTenant(tenantID, in: database)
            let live = try await Self.mdesIssuerKeys(tenantID: tenantID, in: database).filter { $0.retiredAt == nil }
            guard var key = live.first(where: { $0.fingerprint == fingerprint }) else {
                throw ProvisioError(.mdesKeyNotFound, "The tenant has no live MDES issuer key with this fingerprint.")
            }
            guard live.count > 1 else {
                throw ProvisioError(
                    .mdesKeyLastLive,
                    "This is the tenant's only live MDES issuer key; add a new one with --rotate, register it, then retire this one."
                )
            }
            try await database.raw(
                """
                UPDATE mdes_issuer_keys SET retired_at = \(bind: time.epochMilliseconds), private_key_vault_record = NULL
                WHERE tenant_id = \(bind: tenantID) AND fingerprint = \(bind: fingerprint)
                """
            ).run()
            try await Self.audit(
                AuditChange("mdes_key.retired", target: "mdes_key", fingerprint), tenantID: tenantID, at: time, in: database)
            key.retiredAt = time
            key.privateKeyVaultRecord = nil
            return key
        }
    }

    /// Serializes the key changes of one tenant: PostgreSQL locks its row until the transaction
    /// ends; SQLite's write transactions (`BEGIN IMMEDIATE`) are serial already.
    private func lockTenant(_ tenantID: String, in database: any SQLDatabase) async throws {
        guard handle.engine == .postgres else { return }
        try await database.raw("SELECT id FROM tenants WHERE id = \(bind: tenantID) FOR UPDATE").run()
    }

    static func mdesIssuerKeys(tenantID: String, in database: any SQLDatabase) async throws -> [MDESIssuerKeyRecord] {
        try await database.raw(
            """
            SELECT * FROM mdes_issuer_keys WHERE tenant_id = \(bind: tenantID)
            ORDER BY created_at DESC, fingerprint DESC
            """
        ).all().map { row in
            MDESIssuerKeyRecord(
                tenantID: try row.decode(column: "tenant_id", as: String.self),
                fingerprint: try row.decode(column: "fingerprint", as: String.self),
                keySize: try row.decode(column: "key_size", as: Int.self),
                publicKeyPEM: try row.decode(column: "public_key_pem", as: String.self),
                privateKeyVaultRecord: try row.decode(column: "private_key_vault_record", as: String?.self),
                createdAt: try date(row, "created_at"), retiredAt: try optionalDate(row, "retired_at"))
        }
    }
}
