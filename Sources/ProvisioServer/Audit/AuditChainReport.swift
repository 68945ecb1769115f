/// An audit chain that verified: how many lines, and the hash of the last one. Recording the
/// head somewhere the database's owner cannot write is what makes a rewrite of the chain's end
/// detectable (`AuditChainVerifier.Anchor`).
public struct AuditChainReport: Sendable, Equatable {
    /// Chained lines, 1 through `lines`.
    public var lines: Int64
    /// Lines written before the chain began, folded into line 1's previous hash.
    public var legacyLines: Int
    /// The last line's hash (the genesis when there is no chained line yet).
    public var head: String

    public init(lines: Int64, legacyLines: Int, head: String) {
        self.lines = lines
        self.legacyLines = legacyLines
        self.head = head
    }
}
