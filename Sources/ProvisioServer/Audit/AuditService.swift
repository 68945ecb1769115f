import Foundation
import ProvisioCore

/// Reading the audit log. Appending is not here: each change's own store write appends its
/// line in the same transaction, so a change and its record cannot part.
public struct AuditService: Sendable {
    let store: any AuditStore

    public init(store: any AuditStore) {
        self.store = store
    }

    /// One page of the tenant's log, newest first.
    public func events(tenantID: String, filter: AuditFilter, cursor: String?, limit: Int?) async throws
        -> Page<AuditEventRecord>
    {
        try FilterLength.check([
            ("target_type", filter.targetType, 64), ("target_id", filter.targetID, 128), ("actor_id", filter.actorID, 128),
        ])
        return try await store.auditEvents(
            tenantID: tenantID, filter: filter, cursor: cursor, limit: try PageSize.resolve(limit))
    }
}
