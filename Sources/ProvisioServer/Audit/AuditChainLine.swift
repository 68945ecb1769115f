/// One audit line as the chain hashes it: the row's values exactly as stored. The time stays
/// epoch milliseconds, never a `Date`: a round trip through `Double` could move it by one and
/// break a line nobody changed.
public struct AuditChainLine: Sendable, Equatable {
    public var id: String
    public var tenantID: String
    public var actorType: String
    public var actorID: String?
    public var action: String
    public var targetType: String
    public var targetID: String
    public var reason: String?
    public var requestID: String?
    public var createdAtMilliseconds: Int64
    /// The line's place in the chain, from 1; nil for a line written before the chain began.
    public var sequence: Int64?
    /// The hash of the line before (lowercase hex), as stored.
    public var previousHash: String?
    /// This line's hash (lowercase hex), as stored.
    public var chainHash: String?

    public init(
        id: String, tenantID: String, actorType: String, actorID: String?, action: String, targetType: String,
        targetID: String, reason: String?, requestID: String?, createdAtMilliseconds: Int64, sequence: Int64? = nil,
        previousHash: String? = nil, chainHash: String? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.actorType = actorType
        self.actorID = actorID
        self.action = action
        self.targetType = targetType
        self.targetID = targetID
        self.reason = reason
        self.requestID = requestID
        self.createdAtMilliseconds = createdAtMilliseconds
        self.sequence = sequence
        self.previousHash = previousHash
        self.chainHash = chainHash
    }
}
