import Foundation
import ProvisioCore
import SQLKit

/// Row decoding, kept apart from the queries.
extension SQLProvisioStore {
    static func date(_ row: any SQLRow, _ column: String) throws -> Date {
        Date(epochMilliseconds: try row.decode(column: column, as: Int64.self))
    }

    static func optionalDate(_ row: any SQLRow, _ column: String) throws -> Date? {
        try row.decode(column: column, as: Int64?.self).map(Date.init(epochMilliseconds:))
    }

    static func tenant(from row: any SQLRow) throws -> TenantRecord {
        TenantRecord(
            id: try row.decode(column: "id", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            createdAt: try date(row, "created_at"))
    }

    static func card(from row: any SQLRow) throws -> CardRecord {
        try row.decode(record: CardRecord.self)
    }

    static func attempt(from row: any SQLRow) throws -> ProvisioningAttemptRecord {
        ProvisioningAttemptRecord(
            id: try row.decode(column: "id", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            cardID: try row.decode(column: "card_id", as: String.self),
            wallet: try Wallet(wireName: try row.decode(column: "wallet", as: String.self)),
            deviceType: try row.decode(column: "device_type", as: String?.self).flatMap(DeviceType.init(rawValue:)),
            encryptionScheme: try row.decode(column: "encryption_scheme", as: String?.self).flatMap(
                EncryptionScheme.init(rawValue:)),
            outcome: ProvisioningAttemptRecord.Outcome(rawValue: try row.decode(column: "outcome", as: String.self)) ?? .failed,
            errorCode: try row.decode(column: "error_code", as: String?.self),
            createdAt: try date(row, "created_at"))
    }

    static func mobileSession(from row: any SQLRow) throws -> MobileSessionRecord {
        MobileSessionRecord(
            id: try row.decode(column: "id", as: String.self),
            tokenHash: try row.decode(column: "token_hash", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            customerRef: try row.decode(column: "customer_ref", as: String.self),
            expiresAt: try date(row, "expires_at"),
            createdAt: try date(row, "created_at"))
    }

    static func provisionToken(from row: any SQLRow) throws -> ProvisionTokenRecord {
        ProvisionTokenRecord(
            tokenHash: try row.decode(column: "token_hash", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            cardID: try row.decode(column: "card_id", as: String.self),
            wallet: try Wallet(wireName: try row.decode(column: "wallet", as: String.self)),
            expiresAt: try date(row, "expires_at"),
            usedAt: try optionalDate(row, "used_at"),
            createdAt: try date(row, "created_at"))
    }

    static func idempotency(from row: any SQLRow) throws -> IdempotencyRecord {
        IdempotencyRecord(
            scope: try row.decode(column: "scope", as: String.self),
            key: try row.decode(column: "idempotency_key", as: String.self),
            requestHash: try row.decode(column: "request_hash", as: String.self),
            state: IdempotencyRecord.State(rawValue: try row.decode(column: "state", as: String.self)) ?? .inProgress,
            responseStatus: try row.decode(column: "response_status", as: Int?.self),
            responseBody: try row.decode(column: "response_body", as: String?.self),
            leaseToken: try row.decode(column: "lease_token", as: String?.self),
            leaseExpiresAt: try optionalDate(row, "lease_expires_at"),
            effectRef: try row.decode(column: "effect_ref", as: String?.self),
            createdAt: try date(row, "created_at"))
    }

    /// `SELECT * FROM table WHERE tenant_id = … [AND column = value]…` after the cursor, in
    /// (created_at, id) order, one row more than the page to know whether another follows.
    /// One page of `table`'s rows of the tenant matching every filter, oldest first (or
    /// newest first), by `(created_at, id)` after `cursor`; one row more than `limit` tells
    /// whether another page exists.
    func keysetRows(
        table: String, tenantID: String, filters: [(column: String, value: String)], cursor: String?, limit: Int,
        newestFirst: Bool = false
    ) async throws -> [any SQLRow] {
        let after = try cursor.map(PageCursor.init(encoded:))
        let (beyond, order) = newestFirst ? ("<", "DESC") : (">", "ASC")
        return try await handle.read { database in
            var query = SQLQueryString("SELECT * FROM \(unsafeRaw: table) WHERE tenant_id = \(bind: tenantID)")
            for filter in filters {
                query.appendInterpolation(unsafeRaw: " AND \(filter.column) = ")
                query.appendInterpolation(bind: filter.value)
            }
            if let after { Self.appendKeyset(to: &query, beyond: beyond, createdAt: after.createdAt, id: after.id) }
            query.appendInterpolation(unsafeRaw: " ORDER BY created_at \(order), id \(order) LIMIT ")
            query.appendInterpolation(bind: limit + 1)
            return try await database.raw(query).all()
        }
    }

    /// ` AND` rows past (`beyond`: `>` or `<`) the position (`createdAt`, `id`) in the order
    /// `created_at, id`: the keyset every paged read of the store continues from.
    static func appendKeyset(to query: inout SQLQueryString, beyond: String, createdAt: Int64, id: String) {
        query.appendInterpolation(unsafeRaw: " AND (created_at \(beyond) ")
        query.appendInterpolation(bind: createdAt)
        query.appendInterpolation(unsafeRaw: " OR (created_at = ")
        query.appendInterpolation(bind: createdAt)
        query.appendInterpolation(unsafeRaw: " AND id \(beyond) ")
        query.appendInterpolation(bind: id)
        query.appendInterpolation(unsafeRaw: "))")
    }

    static func page<Item>(_ rows: [Item], limit: Int, cursor: (Item) -> PageCursor) -> Page<Item> {
        guard rows.count > limit else { return Page(items: rows, nextCursor: nil) }
        let items = Array(rows.prefix(limit))
        return Page(items: items, nextCursor: items.last.map { cursor($0).encoded })
    }
}
