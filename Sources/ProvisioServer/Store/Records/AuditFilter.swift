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
