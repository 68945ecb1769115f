import Foundation
import ProvisioCore
import SQLKit

/// API keys and mobile-session revocation; every change appends its audit row in the same
/// transaction.
extension SQLProvisioStore: AccessStore, AuditStore {
    public func insertTenant(_ tenant: TenantRecord, firstKey: APIKeyRecord) async throws {
        try await handle.transaction { database in
            try await database.raw(
                """
                INSERT INTO tenants (id, name, api_key_hash, created_at)
                VALUES (\(bind: tenant.id), \(bind: tenant.name), \(bind: "moved-to-api-keys:" + tenant.id),
                    \(bind: tenant.createdAt.epochMilliseconds))
                """
            ).run()
            try await Self.audit(
                AuditChange("tenant.created", target: "tenant", tenant.id), tenantID: tenant.id, at: tenant.createdAt,
                in: database)
            try await Self.insert(firstKey, into: database)
        }
    }

    public func insertAPIKey(_ key: APIKeyRecord) async throws {
        try await handle.transaction { database in
            try await IdempotentEffect.record("api_key", id: key.id, in: database)
            try await Self.insert(key, into: database)
        }
    }

    private static func insert(_ key: APIKeyRecord, into database: any SQLDatabase) async throws {
        try await database.raw(
            """
            INSERT INTO api_keys (id, tenant_id, name, scope, key_hash, created_at)
            VALUES (\(bind: key.id), \(bind: key.tenantID), \(bind: key.name), \(bind: key.scope.rawValue),
                \(bind: key.keyHash), \(bind: key.createdAt.epochMilliseconds))
            """
        ).run()
        try await audit(
            AuditChange("api_key.created", target: "api_key", key.id, reason: "\(key.name) (\(key.scope.rawValue))"),
            tenantID: key.tenantID, at: key.createdAt, in: database)
    }

    public func apiKey(hash: String) async throws -> APIKeyRecord? {
        try await handle.read { database in
            try await database.raw("SELECT * FROM api_keys WHERE key_hash = \(bind: hash)").first().map(Self.apiKey(from:))
        }
    }

    public func apiKeys(tenantID: String) async throws -> [APIKeyRecord] {
        try await handle.read { database in
            try await database.raw("SELECT * FROM api_keys WHERE tenant_id = \(bind: tenantID) ORDER BY created_at, id").all()
                .map(Self.apiKey(from:))
        }
    }

    public func revokeAPIKey(id: String, tenantID: String, at time: Date) async throws -> APIKeyRecord? {
        try await handle.transaction { database in
            if let revoked = try await database.raw(
                """
                UPDATE api_keys SET revoked_at = \(bind: time.epochMilliseconds)
                WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID) AND revoked_at IS NULL RETURNING *
                """
            ).first() {
                try await Self.audit(
                    AuditChange("api_key.revoked", target: "api_key", id), tenantID: tenantID, at: time, in: database)
                return try Self.apiKey(from: revoked)
            }
            // Already revoked (answer it as it is) or not this tenant's.
            return try await database.raw("SELECT * FROM api_keys WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID)")
                .first().map(Self.apiKey(from:))
        }
    }

    public func touchAPIKey(id: String, at time: Date) async throws {
        try await handle.write { database in
            try await database.raw(
                "UPDATE api_keys SET last_used_at = \(bind: time.epochMilliseconds) WHERE id = \(bind: id)"
            ).run()
        }
    }

    public func revokeMobileSession(id: String, tenantID: String, at time: Date) async throws -> Bool {
        try await handle.transaction { database in
            guard
                let row = try await database.raw(
                    "DELETE FROM mobile_sessions WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID) RETURNING customer_ref"
                ).first()
            else { return false }
            let customer = try row.decode(column: "customer_ref", as: String.self)
            try await Self.audit(
                AuditChange("mobile_session.revoked", target: "mobile_session", id, reason: "customer \(customer)"),
                tenantID: tenantID, at: time, in: database)
            return true
        }
    }

    public func revokeMobileSessions(customerRef: String, tenantID: String, at time: Date) async throws -> Int {
        try await handle.transaction { database in
            let rows = try await database.raw(
                """
                DELETE FROM mobile_sessions WHERE tenant_id = \(bind: tenantID) AND customer_ref = \(bind: customerRef)
                RETURNING id
                """
            ).all()
            for row in rows {
                let id = try row.decode(column: "id", as: String.self)
                try await Self.audit(
                    AuditChange("mobile_session.revoked", target: "mobile_session", id, reason: "customer \(customerRef)"),
                    tenantID: tenantID, at: time, in: database)
            }
            return rows.count
        }
    }

    static func apiKey(from row: any SQLRow) throws -> APIKeyRecord {
        let scope = try row.decode(column: "scope", as: String.self)
        guard let apiKeyScope = APIKeyScope(rawValue: scope) else {
            throw ProvisioError(.internalError, "An API key row holds an unknown scope.")
        }
        return APIKeyRecord(
            id: try row.decode(column: "id", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            scope: apiKeyScope,
            keyHash: try row.decode(column: "key_hash", as: String.self),
            createdAt: try date(row, "created_at"),
            lastUsedAt: try row.decode(column: "last_used_at", as: Int64?.self).map(Date.init(epochMilliseconds:)),
            revokedAt: try row.decode(column: "revoked_at", as: Int64?.self).map(Date.init(epochMilliseconds:)))
    }
}
