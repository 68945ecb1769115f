import Foundation
import ProvisioCore
import SQLKit

extension SQLProvisioStore: GooglePayKeyStore {
    public func currentGooglePaySigningKey(tenantID: String) async throws -> GooglePaySigningKeyRecord? {
        try await googlePaySigningKeys(tenantID: tenantID).first { $0.replacedAt == nil }
    }

    public func googlePaySigningKeys(tenantID: String) async throws -> [GooglePaySigningKeyRecord] {
        try await handle.read { database in try await Self.googlePaySigningKeys(tenantID: tenantID, in: database) }
    }

    public func addGooglePaySigningKey(_ key: GooglePaySigningKeyRecord, replacing: Bool) async throws
        -> GooglePaySigningKeyRecord
    {
        try await handle.transaction { database in
            try await lockTenantForGooglePay(key.tenantID, in: database)
            let current = try await Self.googlePaySigningKeys(tenantID: key.tenantID, in: database).first {
                $0.replacedAt == nil
            }
            if !replacing, let current { return current }
            if let current {
                try await database.raw(
                    """
                    UPDATE google_pay_signing_keys
                    SET replaced_at = \(bind: key.createdAt.epochMilliseconds), secret_key_vault_record = NULL
                    WHERE tenant_id = \(bind: key.tenantID) AND fingerprint = \(bind: current.fingerprint)
                    """
                ).run()
            }
            try await database.raw(
                """
                INSERT INTO google_pay_signing_keys (tenant_id, fingerprint, public_key, secret_key_vault_record,
                    created_at, expires_at)
                VALUES (\(bind: key.tenantID), \(bind: key.fingerprint), \(bind: key.publicKeyArmored),
                    \(bind: key.secretKeyVaultRecord), \(bind: key.createdAt.epochMilliseconds),
                    \(bind: key.expiresAt?.epochMilliseconds))
                """
            ).run()
            let change =
                current.map {
                    AuditChange(
                        "google_pay.signing_key.rotated", target: "google_pay_signing_key", key.fingerprint,
                        reason: "replaces \($0.fingerprint)")
                } ?? AuditChange("google_pay.signing_key.created", target: "google_pay_signing_key", key.fingerprint)
            try await Self.audit(change, tenantID: key.tenantID, at: key.createdAt, in: database)
            return key
        }
    }

    public func googleEncryptionKeys(tenantID: String) async throws -> [GoogleEncryptionKeyRecord] {
        try await handle.read { database in
            try await database.raw(
                """
                SELECT fingerprint, public_key, created_at FROM google_pay_encryption_keys
                WHERE tenant_id = \(bind: tenantID) ORDER BY position
                """
            ).all().map { row in
                GoogleEncryptionKeyRecord(
                    fingerprint: try row.decode(column: "fingerprint", as: String.self),
                    publicKeyArmored: try row.decode(column: "public_key", as: String.self),
                    createdAt: try Self.date(row, "created_at"))
            }
        }
    }

    public func replaceGoogleEncryptionKeys(_ keys: [GoogleEncryptionKeyRecord], tenantID: String, at time: Date)
        async throws
    {
        try await handle.transaction { database in
            try await lockTenantForGooglePay(tenantID, in: database)
            try await database.raw("DELETE FROM google_pay_encryption_keys WHERE tenant_id = \(bind: tenantID)").run()
            for (position, key) in keys.enumerated() {
                try await database.raw(
                    """
                    INSERT INTO google_pay_encryption_keys (tenant_id, position, fingerprint, public_key, created_at)
                    VALUES (\(bind: tenantID), \(bind: position), \(bind: key.fingerprint), \(bind: key.publicKeyArmored),
                        \(bind: key.createdAt.epochMilliseconds))
                    """
                ).run()
            }
            // The fingerprints say which keys; they are public, like the keys.
            let reason = keys.isEmpty ? "none" : keys.map(\.fingerprint).joined(separator: ",")
            try await Self.audit(
                AuditChange("settings.google_pay.updated", target: "tenant", tenantID, reason: reason), tenantID: tenantID,
                at: time, in: database)
        }
    }

    /// Serializes one tenant's Google Pay key changes: PostgreSQL locks its row until the
    /// transaction ends; SQLite's write transactions (`BEGIN IMMEDIATE`) are serial already.
    private func lockTenantForGooglePay(_ tenantID: String, in database: any SQLDatabase) async throws {
        guard handle.engine == .postgres else { return }
        try await database.raw("SELECT id FROM tenants WHERE id = \(bind: tenantID) FOR UPDATE").run()
    }

    static func googlePaySigningKeys(tenantID: String, in database: any SQLDatabase) async throws
        -> [GooglePaySigningKeyRecord]
    {
        try await database.raw(
            """
            SELECT * FROM google_pay_signing_keys WHERE tenant_id = \(bind: tenantID)
            ORDER BY created_at DESC, fingerprint DESC
            """
        ).all().map { row in
            GooglePaySigningKeyRecord(
                tenantID: try row.decode(column: "tenant_id", as: String.self),
                fingerprint: try row.decode(column: "fingerprint", as: String.self),
                publicKeyArmored: try row.decode(column: "public_key", as: String.self),
                secretKeyVaultRecord: try row.decode(column: "secret_key_vault_record", as: String?.self),
                createdAt: try date(row, "created_at"), expiresAt: try optionalDate(row, "expires_at"),
                replacedAt: try optionalDate(row, "replaced_at"))
        }
    }
}
