import Foundation

/// Who is acting and in which request, for the audit rows the store appends inside each
/// change's own transaction.
///
/// A task-local, like `IdempotentEffect`: the request's middleware sets it once from the
/// authenticated principal, the command line sets it for its commands, and no service between
/// them and the store has to pass it along. Outside both it is the server itself (`system`).
public struct AuditContext: Sendable, Equatable {
    public var actor: AuditActor
    public var requestID: String?
    /// Why a person made the changes of this request, in their words (the console asks for
    /// it); it stands in the log instead of the change's own reason code.
    public var reason: String?

    public init(actor: AuditActor, requestID: String? = nil, reason: String? = nil) {
        self.actor = actor
        self.requestID = requestID
        self.reason = reason
    }

    @TaskLocal public static var current = AuditContext(actor: .system)
}
