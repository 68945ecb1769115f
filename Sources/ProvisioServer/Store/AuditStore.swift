import Foundation

/// The append-only audit log.
public protocol AuditStore: Sendable {
    /// Appends a change that is not recorded as part of another write.
    func appendAudit(_ change: AuditChange, tenantID: String, at time: Date) async throws
    func auditEvents(tenantID: String, filter: AuditFilter, cursor: String?, limit: Int) async throws
        -> Page<AuditEventRecord>
}
