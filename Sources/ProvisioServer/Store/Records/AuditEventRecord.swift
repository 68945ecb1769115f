import Foundation

/// One line of a tenant's audit log: who changed what, why, in which request, when. Rows are
/// only ever appended (the database refuses updates and deletes).
public struct AuditEventRecord: Sendable, Equatable {
    public var id: String
    public var tenantID: String
    public var actor: AuditActor
    /// `noun.verb`, e.g. `token.suspended`, `api_key.revoked`, `settings.decisioning.updated`.
    public var action: String
    public var targetType: String
    public var targetID: String
    public var reason: String?
    public var requestID: String?
    public var createdAt: Date

    public init(
        id: String, tenantID: String, actor: AuditActor, action: String, targetType: String, targetID: String,
        reason: String?, requestID: String?, createdAt: Date
    ) {
        self.id = id
        self.tenantID = tenantID
        self.actor = actor
        self.action = action
        self.targetType = targetType
        self.targetID = targetID
        self.reason = reason
        self.requestID = requestID
        self.createdAt = createdAt
    }
}
