/// A change about to be recorded: what happened to which target, and why.
public struct AuditChange: Sendable, Equatable {
    public var action: String
    public var targetType: String
    public var targetID: String
    public var reason: String?

    public init(_ action: String, target targetType: String, _ targetID: String, reason: String? = nil) {
        self.action = action
        self.targetType = targetType
        self.targetID = targetID
        self.reason = reason
    }
}
