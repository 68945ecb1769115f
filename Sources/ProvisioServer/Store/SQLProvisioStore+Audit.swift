import Foundation
import ProvisioCore
import SQLKit

/// The audit log: appended inside the transaction of the change it records, each line chained
/// to the one before (`AuditChain`), read newest first.
extension SQLProvisioStore {
    /// The PostgreSQL advisory lock that orders appends to the chain ("provaudt"); the
    /// migrations' lock is another number.
    static let auditChainLock: Int64 = 0x7072_6f76_6175_6474

    /// How many rows one read of the chain's walk brings back.
    static let auditChainPage = 500

    /// Appends `change` as done by the running `AuditContext`; call inside the change's
    /// transaction. On PostgreSQL this takes the chain's lock until that transaction ends, so
    /// two servers never read the same last line and fork the chain; SQLite's write lock
    /// already orders every writer, in every process.
    static func audit(_ change: AuditChange, tenantID: String, at time: Date, in database: any SQLDatabase) async throws {
        let context = AuditContext.current
        let line = AuditChainLine(
            id: AuditEventID.next(at: time), tenantID: tenantID, actorType: context.actor.kind.rawValue,
            actorID: context.actor.id, action: change.action, targetType: change.targetType, targetID: change.targetID,
            reason: context.reason ?? change.reason, requestID: context.requestID,
            createdAtMilliseconds: time.epochMilliseconds)
        if database.dialect.name == "postgresql" {
            try await database.raw("SELECT pg_advisory_xact_lock(\(bind: auditChainLock))").run()
        }
        let (last, previous) = try await auditChainHead(in: database)
        let sequence = last + 1
        let hash = AuditChain.hash(line, sequence: sequence, previous: previous)
        try await database.raw(
            """
            INSERT INTO audit_events (id, tenant_id, actor_type, actor_id, action, target_type, target_id, reason,
                request_id, created_at, chain_sequence, previous_hash, chain_hash)
            VALUES (\(bind: line.id), \(bind: line.tenantID), \(bind: line.actorType), \(bind: line.actorID),
                \(bind: line.action), \(bind: line.targetType), \(bind: line.targetID), \(bind: line.reason),
                \(bind: line.requestID), \(bind: line.createdAtMilliseconds), \(bind: sequence), \(bind: previous),
                \(bind: hash))
            """
        ).run()
    }

    /// The last chained line's place and hash; before the first one, place 0 and the genesis:
    /// the lines written before the chain began, folded together.
    private static func auditChainHead(in database: any SQLDatabase) async throws -> (Int64, String) {
        if let row = try await database.raw(
            """
            SELECT chain_sequence, chain_hash FROM audit_events WHERE chain_sequence IS NOT NULL
            ORDER BY chain_sequence DESC LIMIT 1
            """
        ).first() {
            return (
                try row.decode(column: "chain_sequence", as: Int64.self),
                try row.decode(column: "chain_hash", as: String?.self) ?? ""
            )
        }
        var genesis = AuditChainVerifier()
        try await forEachLegacyAuditLine(in: database) { genesis.addLegacy($0) }
        return (0, genesis.head)
    }

    /// Appends a change that has no other row to go with (e.g. a replay request).
    public func appendAudit(_ change: AuditChange, tenantID: String, at time: Date) async throws {
        // A transaction, not a single write: reading the chain's head and appending after it
        // must not be split by another writer.
        try await handle.transaction { database in
            try await Self.audit(change, tenantID: tenantID, at: time, in: database)
        }
    }

    /// Walks the whole chain and says whether it holds: every line's hash matches its fields and
    /// the line before, no place is missing, and `anchor`, if given, is still on it. Reads page
    /// by page on read connections, so servers keep writing meanwhile; lines appended during
    /// the walk are checked too.
    public func verifyAuditChain(anchor: AuditChainVerifier.Anchor? = nil) async throws
        -> Result<AuditChainReport, AuditChainBreak>
    {
        var verifier = try await handle.read { database in
            var verifier = AuditChainVerifier(anchor: anchor)
            try await Self.forEachLegacyAuditLine(in: database) { verifier.addLegacy($0) }
            return verifier
        }
        var next: Int64 = 0
        while true {
            let after = next
            let rows = try await handle.read { database in
                try await database.raw(
                    """
                    SELECT * FROM audit_events WHERE chain_sequence > \(bind: after)
                    ORDER BY chain_sequence LIMIT \(bind: Self.auditChainPage)
                    """
                ).all().map(Self.auditChainLine(from:))
            }
            for line in rows {
                guard verifier.add(line) else { return verifier.finish() }
            }
            guard rows.count == Self.auditChainPage, let last = rows.last?.sequence else { break }
            next = last
        }
        return verifier.finish()
    }

    /// The lines from before the chain, oldest first, page by page.
    private static func forEachLegacyAuditLine(
        in database: any SQLDatabase, _ body: (AuditChainLine) -> Void
    ) async throws {
        var cursor: (createdAt: Int64, id: String)?
        while true {
            var query = SQLQueryString("SELECT * FROM audit_events WHERE chain_sequence IS NULL")
            if let cursor { appendKeyset(to: &query, beyond: ">", createdAt: cursor.createdAt, id: cursor.id) }
            query.appendInterpolation(unsafeRaw: " ORDER BY created_at, id LIMIT ")
            query.appendInterpolation(bind: auditChainPage)
            let rows = try await database.raw(query).all().map(auditChainLine(from:))
            rows.forEach(body)
            guard rows.count == auditChainPage, let last = rows.last else { return }
            cursor = (last.createdAtMilliseconds, last.id)
        }
    }

    static func auditChainLine(from row: any SQLRow) throws -> AuditChainLine {
        AuditChainLine(
            id: try row.decode(column: "id", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            actorType: try row.decode(column: "actor_type", as: String.self),
            actorID: try row.decode(column: "actor_id", as: String?.self),
            action: try row.decode(column: "action", as: String.self),
            targetType: try row.decode(column: "target_type", as: String.self),
            targetID: try row.decode(column: "target_id", as: String.self),
            reason: try row.decode(column: "reason", as: String?.self),
            requestID: try row.decode(column: "request_id", as: String?.self),
            createdAtMilliseconds: try row.decode(column: "created_at", as: Int64.self),
            sequence: try row.decode(column: "chain_sequence", as: Int64?.self),
            previousHash: try row.decode(column: "previous_hash", as: String?.self),
            chainHash: try row.decode(column: "chain_hash", as: String?.self))
    }

    /// One page of the tenant's audit log, newest first.
    public func auditEvents(tenantID: String, filter: AuditFilter, cursor: String?, limit: Int) async throws
        -> Page<AuditEventRecord>
    {
        let equalities: [(String, String?)] = [
            ("target_type", filter.targetType), ("target_id", filter.targetID),
            ("actor_type", filter.actorType?.rawValue), ("actor_id", filter.actorID),
        ]
        let rows = try await keysetRows(
            table: "audit_events", tenantID: tenantID,
            filters: equalities.compactMap { column, value in value.map { (column, $0) } }, cursor: cursor, limit: limit,
            newestFirst: true)
        return Self.page(try rows.map(Self.auditEvent(from:)), limit: limit) {
            PageCursor(createdAt: $0.createdAt.epochMilliseconds, id: $0.id)
        }
    }

    static func auditEvent(from row: any SQLRow) throws -> AuditEventRecord {
        let kind = try row.decode(column: "actor_type", as: String.self)
        guard let actorKind = AuditActor.Kind(rawValue: kind) else {
            throw ProvisioError(.internalError, "An audit row holds an unknown actor type.")
        }
        return AuditEventRecord(
            id: try row.decode(column: "id", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            actor: AuditActor(actorKind, id: try row.decode(column: "actor_id", as: String?.self)),
            action: try row.decode(column: "action", as: String.self),
            targetType: try row.decode(column: "target_type", as: String.self),
            targetID: try row.decode(column: "target_id", as: String.self),
            reason: try row.decode(column: "reason", as: String?.self),
            requestID: try row.decode(column: "request_id", as: String?.self),
            createdAt: try date(row, "created_at"))
    }
}
