import Foundation
import ProvisioCore
import SQLKit

/// The audit log: appended inside the transaction of the change it records, read newest first.
extension SQLProvisioStore {
    /// Appends `change` as done by the running `AuditContext`; call inside the change's transaction.
    static func audit(_ change: AuditChange, tenantID: String, at time: Date, in database: any SQLDatabase) async throws {
        let context = AuditContext.current
        try await database.raw(
            """
            INSERT INTO audit_events (id, tenant_id, actor_type, actor_id, action, target_type, target_id, reason,
                request_id, created_at)
            VALUES (\(bind: AuditEventID.next(at: time)), \(bind: tenantID), \(bind: context.actor.kind.rawValue),
                \(bind: context.actor.id), \(bind: change.action), \(bind: change.targetType), \(bind: change.targetID),
                \(bind: context.reason ?? change.reason), \(bind: context.requestID), \(bind: time.epochMilliseconds))
            """
        ).run()
    }

    /// Appends a change that has no other row to go with (e.g. a replay request).
    public func appendAudit(_ change: AuditChange, tenantID: String, at time: Date) async throws {
        try await handle.write { database in try await Self.audit(change, tenantID: tenantID, at: time, in: database) }
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
