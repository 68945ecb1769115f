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

/// Who made a change: an API key, an operator, the card network, a customer's app credential,
/// someone at the server's command line, or the server itself (workers, migrations).
public struct AuditActor: Sendable, Equatable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case apiKey = "api_key"
        case `operator`
        case network
        case mobileSession = "mobile_session"
        case provisionToken = "provision_token"
        case commandLine = "command_line"
        case system
    }

    public var kind: Kind
    public var id: String?

    public init(_ kind: Kind, id: String? = nil) {
        self.kind = kind
        self.id = id
    }

    public static let system = AuditActor(.system)
    public static let commandLine = AuditActor(.commandLine)
}

/// What an audit query keeps; nil fields match everything.
public struct AuditFilter: Sendable, Equatable {
    public var targetType: String?
    public var targetID: String?
    public var actorType: AuditActor.Kind?
    public var actorID: String?

    public init(targetType: String? = nil, targetID: String? = nil, actorType: AuditActor.Kind? = nil, actorID: String? = nil) {
        self.targetType = targetType
        self.targetID = targetID
        self.actorType = actorType
        self.actorID = actorID
    }
}
