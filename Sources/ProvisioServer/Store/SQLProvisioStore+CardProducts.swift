import Foundation
import ProvisioCore
import SQLKit

/// Card products and their art; every change appends its audit line in the same transaction.
extension SQLProvisioStore: CardProductStore {
    public func insertCardProduct(_ product: CardProductRecord, limit: Int) async throws -> Bool {
        try await handle.transaction { database in
            // Counted inside the transaction that inserts, so two creations at once cannot both
            // pass the limit (SQLite serialises writers; PostgreSQL locks the tenant's row).
            if database.dialect.name == "postgresql" {
                try await database.raw("SELECT id FROM tenants WHERE id = \(bind: product.tenantID) FOR UPDATE").run()
            }
            let count =
                try await database.raw(
                    "SELECT COUNT(*) AS n FROM card_products WHERE tenant_id = \(bind: product.tenantID)"
                ).first().map { try $0.decode(column: "n", as: Int.self) } ?? 0
            guard count < limit else { return false }
            try await IdempotentEffect.record("card_product", id: product.id, in: database)
            if product.isDefault { try await Self.clearDefault(tenantID: product.tenantID, except: product.id, in: database) }
            try await database.raw(
                """
                INSERT INTO card_products (id, tenant_id, is_default, settings, art_sha256, art_kind, created_at, updated_at)
                VALUES (\(bind: product.id), \(bind: product.tenantID), \(bind: product.isDefault ? 1 : 0),
                    \(bind: try Self.json(product.settings)), \(bind: product.art?.sha256), \(bind: product.art?.kind.rawValue),
                    \(bind: product.createdAt.epochMilliseconds), \(bind: product.updatedAt.epochMilliseconds))
                """
            ).run()
            try await Self.audit(
                AuditChange("card_product.created", target: "card_product", product.id), tenantID: product.tenantID,
                at: product.createdAt, in: database)
            return true
        }
    }

    public func cardProduct(id: String, tenantID: String) async throws -> CardProductRecord? {
        try await handle.read { database in
            try await Self.cardProduct(id: id, tenantID: tenantID, in: database)
        }
    }

    public func defaultCardProduct(tenantID: String) async throws -> CardProductRecord? {
        try await handle.read { database in
            try await database.raw(
                """
                SELECT p.*, a.byte_count, a.width, a.height FROM card_products p
                LEFT JOIN card_art a ON a.sha256 = p.art_sha256 AND a.kind = p.art_kind
                WHERE p.tenant_id = \(bind: tenantID) AND p.is_default = 1 ORDER BY p.created_at, p.id LIMIT 1
                """
            ).first().map(Self.cardProduct(from:))
        }
    }

    public func cardProducts(tenantID: String) async throws -> [CardProductRecord] {
        try await handle.read { database in
            try await database.raw(
                """
                SELECT p.*, a.byte_count, a.width, a.height FROM card_products p
                LEFT JOIN card_art a ON a.sha256 = p.art_sha256 AND a.kind = p.art_kind
                WHERE p.tenant_id = \(bind: tenantID) ORDER BY p.created_at, p.id
                """
            ).all().map(Self.cardProduct(from:))
        }
    }

    public func updateCardProduct(_ product: CardProductRecord, at time: Date) async throws -> CardProductRecord? {
        try await handle.transaction { database in
            if product.isDefault { try await Self.clearDefault(tenantID: product.tenantID, except: product.id, in: database) }
            let updated = try await database.raw(
                """
                UPDATE card_products SET is_default = \(bind: product.isDefault ? 1 : 0),
                    settings = \(bind: try Self.json(product.settings)), updated_at = \(bind: time.epochMilliseconds)
                WHERE id = \(bind: product.id) AND tenant_id = \(bind: product.tenantID) RETURNING id
                """
            ).first()
            guard updated != nil else { return nil }
            try await Self.audit(
                AuditChange("card_product.updated", target: "card_product", product.id), tenantID: product.tenantID,
                at: time, in: database)
            return try await Self.cardProduct(id: product.id, tenantID: product.tenantID, in: database)
        }
    }

    public func setCardProductArt(_ art: CardArtFile, productID: String, tenantID: String, at time: Date) async throws
        -> CardProductRecord?
    {
        try await handle.transaction { database in
            guard try await Self.cardProduct(id: productID, tenantID: tenantID, in: database) != nil else { return nil }
            // The same bytes are one row whoever uploads them: the digest names them.
            try await database.raw(
                """
                INSERT INTO card_art (sha256, kind, byte_count, width, height, data, created_at)
                VALUES (\(bind: art.sha256), \(bind: art.kind.rawValue), \(bind: art.bytes.count), \(bind: art.width),
                    \(bind: art.height), \(bind: art.bytes.base64EncodedString()), \(bind: time.epochMilliseconds))
                ON CONFLICT (sha256, kind) DO NOTHING
                """
            ).run()
            try await database.raw(
                """
                UPDATE card_products SET art_sha256 = \(bind: art.sha256), art_kind = \(bind: art.kind.rawValue),
                    updated_at = \(bind: time.epochMilliseconds)
                WHERE id = \(bind: productID) AND tenant_id = \(bind: tenantID)
                """
            ).run()
            try await Self.audit(
                AuditChange("card_product.art_updated", target: "card_product", productID, reason: art.fileName),
                tenantID: tenantID, at: time, in: database)
            return try await Self.cardProduct(id: productID, tenantID: tenantID, in: database)
        }
    }

    public func cardArt(sha256: String, kind: CardArtFile.Kind) async throws -> Data? {
        try await handle.read { database in
            // Only art a product points at now: replaced art is not served on.
            try await database.raw(
                """
                SELECT a.data FROM card_art a
                WHERE a.sha256 = \(bind: sha256) AND a.kind = \(bind: kind.rawValue) AND EXISTS (
                    SELECT 1 FROM card_products p WHERE p.art_sha256 = a.sha256 AND p.art_kind = a.kind)
                """
            ).first().flatMap { Data(base64Encoded: try $0.decode(column: "data", as: String.self)) }
        }
    }

    public func cardIDs(followingProduct product: CardProductRecord) async throws -> [String] {
        try await handle.read { database in
            let rows =
                product.isDefault
                ? try await database.raw(
                    """
                    SELECT id FROM cards WHERE tenant_id = \(bind: product.tenantID)
                        AND (product_id = \(bind: product.id) OR product_id IS NULL) ORDER BY created_at, id
                    """
                ).all()
                : try await database.raw(
                    """
                    SELECT id FROM cards WHERE tenant_id = \(bind: product.tenantID) AND product_id = \(bind: product.id)
                    ORDER BY created_at, id
                    """
                ).all()
            return try rows.map { try $0.decode(column: "id", as: String.self) }
        }
    }

    private static func clearDefault(tenantID: String, except id: String, in database: any SQLDatabase) async throws {
        try await database.raw(
            "UPDATE card_products SET is_default = 0 WHERE tenant_id = \(bind: tenantID) AND id <> \(bind: id) AND is_default = 1"
        ).run()
    }

    private static func cardProduct(id: String, tenantID: String, in database: any SQLDatabase) async throws
        -> CardProductRecord?
    {
        try await database.raw(
            """
            SELECT p.*, a.byte_count, a.width, a.height FROM card_products p
            LEFT JOIN card_art a ON a.sha256 = p.art_sha256 AND a.kind = p.art_kind
            WHERE p.id = \(bind: id) AND p.tenant_id = \(bind: tenantID)
            """
        ).first().map(cardProduct(from:))
    }

    private static func json(_ settings: CardProductSettings) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(settings), as: UTF8.self)
    }

    private static func cardProduct(from row: any SQLRow) throws -> CardProductRecord {
        let settings = try JSONDecoder().decode(
            CardProductSettings.self, from: Data(try row.decode(column: "settings", as: String.self).utf8))
        var art: CardArtSummary?
        if let sha256 = try row.decode(column: "art_sha256", as: String?.self),
            let kind = try row.decode(column: "art_kind", as: String?.self).flatMap(CardArtFile.Kind.init(rawValue:))
        {
            art = CardArtSummary(
                sha256: sha256, kind: kind, byteCount: try row.decode(column: "byte_count", as: Int?.self) ?? 0,
                width: try row.decode(column: "width", as: Int?.self), height: try row.decode(column: "height", as: Int?.self))
        }
        return CardProductRecord(
            id: try row.decode(column: "id", as: String.self), tenantID: try row.decode(column: "tenant_id", as: String.self),
            isDefault: try row.decode(column: "is_default", as: Int.self) == 1, settings: settings, art: art,
            createdAt: Date(epochMilliseconds: try row.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(epochMilliseconds: try row.decode(column: "updated_at", as: Int64.self)))
    }
}
