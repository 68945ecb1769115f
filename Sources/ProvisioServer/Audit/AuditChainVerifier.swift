/// Walks the audit chain line by line: first the lines from before the chain (oldest first),
/// then the chained ones by place. Pure: the store feeds it rows in pages, tests feed it values.
public struct AuditChainVerifier: Sendable {
    /// A line's hash recorded outside the database (`SEQUENCE:HASH`): the chain must still pass
    /// through it, so rewriting the chain up to it, or cutting it short before it, is found.
    public struct Anchor: Sendable, Equatable {
        public var sequence: Int64
        public var hash: String

        public init(sequence: Int64, hash: String) {
            self.sequence = sequence
            self.hash = hash
        }

        /// `17:3f…` (64 hex digits); nil when the text is not one.
        public init?(_ text: some StringProtocol) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let sequence = Int64(parts[0]), sequence >= 1, parts[1].utf8.count == 64,
                parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) })
            else { return nil }
            self.init(sequence: sequence, hash: parts[1].lowercased())
        }
    }

    public let anchor: Anchor?
    public private(set) var lines: Int64 = 0
    public private(set) var legacyLines = 0
    /// The last verified line's hash (before any chained line, the genesis).
    public private(set) var head = AuditChain.zeroHash
    public private(set) var broken: AuditChainBreak?

    public init(anchor: Anchor? = nil) {
        self.anchor = anchor
    }

    /// Folds in a line written before the chain began; call for all of them, oldest first,
    /// before the first chained line.
    public mutating func addLegacy(_ line: AuditChainLine) {
        precondition(lines == 0, "lines from before the chain come first")
        head = AuditChain.hash(line, sequence: 0, previous: head)
        legacyLines += 1
    }

    /// Checks the next chained line; false once the chain is broken (feeding more changes nothing).
    @discardableResult
    public mutating func add(_ line: AuditChainLine) -> Bool {
        guard broken == nil else { return false }
        let expected = lines + 1
        guard let sequence = line.sequence, let previous = line.previousHash, let stored = line.chainHash else {
            return fail(line.sequence ?? expected, line.id, .missingHash)
        }
        if sequence > expected {
            broken = AuditChainBreak(
                sequence: expected, lineID: line.id, problem: .gap, linesVerified: lines, foundSequence: sequence)
            return false
        }
        guard sequence == expected else { return fail(sequence, line.id, .outOfOrder) }
        guard previous == head else { return fail(sequence, line.id, .previousHashMismatch) }
        let computed = AuditChain.hash(line, sequence: sequence, previous: head)
        guard computed == stored else { return fail(sequence, line.id, .hashMismatch) }
        if let anchor, anchor.sequence == sequence, anchor.hash != computed {
            return fail(sequence, line.id, .anchorMismatch)
        }
        head = computed
        lines = sequence
        return true
    }

    /// The verdict once every line was fed.
    public func finish() -> Result<AuditChainReport, AuditChainBreak> {
        if let broken { return .failure(broken) }
        if let anchor, anchor.sequence > lines {
            return .failure(
                AuditChainBreak(sequence: anchor.sequence, lineID: nil, problem: .anchorMissing, linesVerified: lines))
        }
        return .success(AuditChainReport(lines: lines, legacyLines: legacyLines, head: head))
    }

    private mutating func fail(_ sequence: Int64, _ id: String, _ problem: AuditChainBreak.Problem) -> Bool {
        broken = AuditChainBreak(sequence: sequence, lineID: id, problem: problem, linesVerified: lines)
        return false
    }
}
