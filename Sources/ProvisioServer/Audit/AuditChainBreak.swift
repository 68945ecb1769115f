import ProvisioCore

/// The first place the audit chain does not hold: which line, and what is wrong with it.
public struct AuditChainBreak: Error, Sendable, Equatable {
    public enum Problem: String, Sendable {
        /// The line's fields do not give its stored hash: it was changed after it was written.
        case hashMismatch = "hash_mismatch"
        /// The line's previous hash is not the hash of the line before: that line's hash (or,
        /// for line 1, a line written before the chain began) was changed, or this one's.
        case previousHashMismatch = "previous_hash_mismatch"
        /// Lines are missing: the chain skips from the line before to a later one.
        case gap
        /// A chained line without its previous hash or its own.
        case missingHash = "missing_hash"
        /// A place taken twice, or a line out of order.
        case outOfOrder = "out_of_order"
        /// The anchored line's hash is not the one recorded for it.
        case anchorMismatch = "anchor_mismatch"
        /// The chain ends before the anchored line: lines were cut off its end.
        case anchorMissing = "anchor_missing"
    }

    /// The broken line's place in the chain (for a gap, the first missing place).
    public var sequence: Int64
    /// The broken line's id (for a gap, the id of the line found after it).
    public var lineID: String?
    public var problem: Problem
    /// How many lines before it verified.
    public var linesVerified: Int64
    /// For a gap, the place of the line found after it.
    public var foundSequence: Int64?

    public init(
        sequence: Int64, lineID: String?, problem: Problem, linesVerified: Int64, foundSequence: Int64? = nil
    ) {
        self.sequence = sequence
        self.lineID = lineID
        self.problem = problem
        self.linesVerified = linesVerified
        self.foundSequence = foundSequence
    }

    /// What is wrong, in words; only places, ids and hashes the database holds, never a field.
    public var message: String {
        let line = "Audit line \(sequence)" + (lineID.map { " (\($0))" } ?? "")
        switch problem {
        case .hashMismatch:
            return "\(line) does not match its hash: it was changed after it was written."
        case .previousHashMismatch where sequence == 1:
            return "\(line) does not follow the lines written before the chain began: one of those was changed, added or removed."
        case .previousHashMismatch:
            return "\(line) does not follow line \(sequence - 1): the hash of one of them was changed."
        case .gap:
            let found = foundSequence.map { " line \($0)" } ?? " a later line"
            return "Audit line \(sequence) is missing:\(found)\(lineID.map { " (\($0))" } ?? "") follows line \(sequence - 1)."
        case .missingHash:
            return "\(line) has no chain hash."
        case .outOfOrder:
            return "\(line) is out of order: its place was taken before."
        case .anchorMismatch:
            return "\(line) does not have the hash recorded for it: the chain was rewritten up to it."
        case .anchorMissing:
            return "Audit line \(sequence) is missing: the chain ends at line \(linesVerified), before the recorded one."
        }
    }
}
