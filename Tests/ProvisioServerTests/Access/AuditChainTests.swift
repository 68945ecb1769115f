import Foundation
import Logging
import ProvisioCore
import SQLKit
import Testing

@testable import ProvisioServer

/// The audit log's hash chain: every line carries the hash of the one before, so an owner who
/// drops the triggers and edits, deletes or rewrites lines is found by `verifyAuditChain`,
/// which names the first broken line; concurrent writers still make one chain.
@Suite struct AuditChainTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// Seven lines: two tenants with their first keys, three appended changes.
    static func writeSevenLines(_ store: SQLProvisioStore) async throws {
        try await store.insertTenant(TenantRecord(id: "ten_a", name: "A", createdAt: t0))
        try await store.insertTenant(TenantRecord(id: "ten_b", name: "B", createdAt: t0.addingTimeInterval(1)))
        for index in 0..<3 {
            try await store.appendAudit(
                AuditChange("webhook_delivery.replayed", target: "webhook_delivery", "whd_\(index)", reason: "try \(index)"),
                tenantID: "ten_a", at: t0.addingTimeInterval(2 + Double(index)))
        }
    }

    static func chainedLines(_ database: TestDatabase) async throws -> [AuditChainLine] {
        try await database.handle.read { database in
            try await database.raw("SELECT * FROM audit_events WHERE chain_sequence IS NOT NULL ORDER BY chain_sequence")
                .all().map(SQLProvisioStore.auditChainLine(from:))
        }
    }

    /// What a database owner does first: the triggers refuse UPDATE and DELETE only until dropped.
    static func dropAppendOnlyTriggers(_ database: TestDatabase) async throws {
        let statements =
            switch database.engine {
            case .sqlite: ["DROP TRIGGER audit_events_no_update", "DROP TRIGGER audit_events_no_delete"]
            case .postgres: ["DROP TRIGGER audit_events_append_only ON audit_events"]
            }
        try await execute(statements, in: database)
    }

    static func execute(_ statements: [String], in database: TestDatabase) async throws {
        try await database.handle.write { connection in
            for statement in statements { try await connection.raw(SQLQueryString(statement)).run() }
        }
    }

    @Test(arguments: TestEngine.available)
    func aChainOfEventsVerifies(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await Self.writeSevenLines(store)
            let lines = try await Self.chainedLines(database)
            #expect(lines.map(\.sequence) == Array(1...7))
            #expect(lines.first?.previousHash == AuditChain.zeroHash)
            for (before, line) in zip(lines, lines.dropFirst()) {
                #expect(line.previousHash == before.chainHash)
            }
            for line in lines {
                let sequence = try #require(line.sequence)
                let previous = try #require(line.previousHash)
                #expect(AuditChain.hash(line, sequence: sequence, previous: previous) == line.chainHash)
            }
            let head = try #require(lines.last?.chainHash)
            #expect(try await store.verifyAuditChain().get() == AuditChainReport(lines: 7, legacyLines: 0, head: head))
            let anchored = try await store.verifyAuditChain(anchor: .init(sequence: 7, hash: head))
            #expect(try anchored.get().lines == 7)
        }
    }

    @Test(arguments: TestEngine.available)
    func anEditedLineIsNamed(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await Self.writeSevenLines(store)
            let lines = try await Self.chainedLines(database)
            try await Self.dropAppendOnlyTriggers(database)
            try await Self.execute(["UPDATE audit_events SET reason = 'nothing to see' WHERE chain_sequence = 4"], in: database)
            let verdict = try await store.verifyAuditChain()
            #expect(
                verdict == .failure(AuditChainBreak(sequence: 4, lineID: lines[3].id, problem: .hashMismatch, linesVerified: 3)))
        }
    }

    /// An owner who also recomputes the edited line's own hash breaks the next link instead.
    @Test(arguments: TestEngine.available)
    func aLineRehashedAfterAnEditBreaksTheNextLink(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await Self.writeSevenLines(store)
            var line = try await Self.chainedLines(database)[3]
            line.reason = "nothing to see"
            let hash = AuditChain.hash(line, sequence: 4, previous: try #require(line.previousHash))
            try await Self.dropAppendOnlyTriggers(database)
            try await Self.execute(
                ["UPDATE audit_events SET reason = 'nothing to see', chain_hash = '\(hash)' WHERE chain_sequence = 4"],
                in: database)
            let broken = try #require(try await store.verifyAuditChain().failure)
            #expect(broken.sequence == 5 && broken.problem == .previousHashMismatch && broken.linesVerified == 4)
            #expect(broken.message.contains("does not follow line 4"))
        }
    }

    @Test(arguments: TestEngine.available)
    func aDeletedLineIsAGap(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await Self.writeSevenLines(store)
            let lines = try await Self.chainedLines(database)
            try await Self.dropAppendOnlyTriggers(database)
            try await Self.execute(["DELETE FROM audit_events WHERE chain_sequence = 3"], in: database)
            let broken = try #require(try await store.verifyAuditChain().failure)
            #expect(
                broken
                    == AuditChainBreak(sequence: 3, lineID: lines[3].id, problem: .gap, linesVerified: 2, foundSequence: 4))
            #expect(broken.message == "Audit line 3 is missing: line 4 (\(lines[3].id)) follows line 2.")
        }
    }

    /// The documented limit, and what closes it: an owner who rewrites every line from the
    /// changed one on, or cuts lines off the end, leaves a chain that holds, but not through a
    /// head recorded before.
    @Test(arguments: TestEngine.available)
    func aRewrittenOrShortenedEndIsFoundOnlyAgainstAnAnchor(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await Self.writeSevenLines(store)
            let recorded = try await store.verifyAuditChain().get()
            let anchor = AuditChainVerifier.Anchor(sequence: recorded.lines, hash: recorded.head)
            var lines = try await Self.chainedLines(database)
            try await Self.dropAppendOnlyTriggers(database)
            lines[4].reason = "nothing to see"
            var updates: [String] = []
            for index in 4..<7 {
                let sequence = Int64(index + 1)
                let previous = try #require(index == 4 ? lines[index].previousHash : lines[index - 1].chainHash)
                lines[index].previousHash = previous
                lines[index].chainHash = AuditChain.hash(lines[index], sequence: sequence, previous: previous)
                updates.append(
                    """
                    UPDATE audit_events SET reason = '\(lines[index].reason ?? "")', previous_hash = '\(previous)',
                        chain_hash = '\(lines[index].chainHash ?? "")' WHERE chain_sequence = \(sequence)
                    """)
            }
            try await Self.execute(updates, in: database)
            let rewritten = try await store.verifyAuditChain().get()
            #expect(rewritten.lines == 7 && rewritten.head != recorded.head)
            #expect(
                try await store.verifyAuditChain(anchor: anchor)
                    == .failure(AuditChainBreak(sequence: 7, lineID: lines[6].id, problem: .anchorMismatch, linesVerified: 6)))

            try await Self.execute(["DELETE FROM audit_events WHERE chain_sequence = 7"], in: database)
            #expect(try await store.verifyAuditChain().get().lines == 6)
            #expect(
                try await store.verifyAuditChain(anchor: anchor)
                    == .failure(AuditChainBreak(sequence: 7, lineID: nil, problem: .anchorMissing, linesVerified: 6)))
        }
    }

    /// Lines written before the chain existed are not rewritten (nothing may update the log);
    /// they are folded, oldest first, into the first chained line's previous hash.
    @Test(arguments: TestEngine.available)
    func linesFromBeforeTheChainAreItsGenesis(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine, schemaVersion: 8) { database in
            try await Self.execute(
                [
                    "INSERT INTO tenants (id, name, api_key_hash, created_at) VALUES ('ten_old', 'Old', 'h', 1800000000000)",
                    """
                    INSERT INTO audit_events (id, tenant_id, actor_type, actor_id, action, target_type, target_id, reason,
                        request_id, created_at)
                    VALUES ('aud_1', 'ten_old', 'system', NULL, 'tenant.created', 'tenant', 'ten_old', NULL, NULL, 1800000000000),
                        ('aud_2', 'ten_old', 'api_key', 'key_1', 'card.created', 'card', 'card_1', 'why', 'req_1', 1800000000001)
                    """,
                ], in: database)
            #expect(try await Migrator(handle: database.handle).migrate().contains(9))
            let store = SQLProvisioStore(handle: database.handle)
            try await store.appendAudit(AuditChange("card.closed", target: "card", "card_1"), tenantID: "ten_old", at: Self.t0)
            let line = try #require(try await Self.chainedLines(database).first)
            #expect(line.sequence == 1 && line.previousHash != AuditChain.zeroHash)
            #expect(
                try await store.verifyAuditChain().get()
                    == AuditChainReport(lines: 1, legacyLines: 2, head: try #require(line.chainHash)))

            // A line without its place in the chain is refused from now on.
            await #expect(throws: (any Error).self) {
                try await Self.execute(
                    [
                        """
                        INSERT INTO audit_events (id, tenant_id, actor_type, action, target_type, target_id, created_at)
                        VALUES ('aud_3', 'ten_old', 'system', 'card.closed', 'card', 'card_1', 1800000000002)
                        """
                    ], in: database)
            }

            try await Self.dropAppendOnlyTriggers(database)
            try await Self.execute(["UPDATE audit_events SET reason = 'other' WHERE id = 'aud_2'"], in: database)
            #expect(
                try await store.verifyAuditChain()
                    == .failure(AuditChainBreak(sequence: 1, lineID: line.id, problem: .previousHashMismatch, linesVerified: 0)))
        }
    }

    /// Two servers on one database (two handles, each with its own connections) appending at
    /// once, alone and inside other changes' transactions, still write one unbroken chain.
    @Test(arguments: TestEngine.available)
    func concurrentWritersKeepOneChain(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let other: any DatabaseHandle =
                switch database.location {
                case .sqlite(let path): try await SQLiteDatabaseHandle.open(path: path, readers: 1, logger: Logger(label: "two"))
                case .postgres(let url): PostgresDatabaseHandle(url: url, maximumConnections: 4, logger: Logger(label: "two"))
                }
            let stores = [SQLProvisioStore(handle: database.handle), SQLProvisioStore(handle: other)]
            try await stores[0].insertTenant(TenantRecord(id: "ten_a", name: "A", createdAt: Self.t0))
            let writersPerServer = 6
            let appendsPerWriter = 5
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (server, store) in stores.enumerated() {
                        for writer in 0..<writersPerServer {
                            group.addTask {
                                for index in 0..<appendsPerWriter {
                                    try await store.appendAudit(
                                        AuditChange("webhook_delivery.replayed", target: "webhook_delivery", "whd_\(index)"),
                                        tenantID: "ten_a", at: Self.t0)
                                }
                                // A change whose transaction writes other rows and two lines.
                                try await store.insertTenant(
                                    TenantRecord(id: "ten_\(server)_\(writer)", name: "T", createdAt: Self.t0))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            } catch {
                await other.shutdown()
                throw error
            }
            await other.shutdown()
            let expected = Int64(2 + stores.count * writersPerServer * (appendsPerWriter + 2))
            let report = try await stores[0].verifyAuditChain().get()
            #expect(report.lines == expected)
            let count = try await database.handle.read { try await $0.raw("SELECT COUNT(*) AS n FROM audit_events").all() }
            #expect(try count.first?.decode(column: "n", as: Int64.self) == expected)
        }
    }

    /// Every field is length-prefixed or marked absent: moving a character from one field to
    /// the next, or an empty text for a missing one, changes the hash.
    @Test func theEncodingIsUnambiguous() {
        let line = AuditChainLine(
            id: "aud_1", tenantID: "ten_a", actorType: "api_key", actorID: "key_1", action: "card.closed",
            targetType: "card", targetID: "card_1", reason: nil, requestID: "req_1", createdAtMilliseconds: 1_800_000_000_000)
        var variants = [line]
        var moved = line
        moved.action = "card.close"
        moved.targetType = "dcard"
        variants.append(moved)
        var emptyReason = line
        emptyReason.reason = ""
        variants.append(emptyReason)
        var shifted = line
        shifted.reason = "req_1"
        shifted.requestID = nil
        variants.append(shifted)
        var later = line
        later.createdAtMilliseconds += 1
        variants.append(later)
        var hashes = Set(variants.map { AuditChain.hash($0, sequence: 1, previous: AuditChain.zeroHash) })
        hashes.insert(AuditChain.hash(line, sequence: 2, previous: AuditChain.zeroHash))
        hashes.insert(AuditChain.hash(line, sequence: 1, previous: String(repeating: "1", count: 64)))
        #expect(hashes.count == variants.count + 2)
        #expect(hashes.allSatisfy { $0.count == 64 })
    }

    @Test func anAnchorIsAPlaceAndAHash() {
        let hash = String(repeating: "ab", count: 32)
        #expect(AuditChainVerifier.Anchor("7:\(hash)") == .init(sequence: 7, hash: hash))
        #expect(AuditChainVerifier.Anchor("7:\(hash.uppercased())") == .init(sequence: 7, hash: hash))
        for bad in ["0:\(hash)", "7", "x:\(hash)", "7:\(hash.dropLast())", "7:\(hash.dropLast())g", "7:\(hash):1", ""] {
            #expect(AuditChainVerifier.Anchor(bad) == nil, "\(bad)")
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
