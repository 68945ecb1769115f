import Foundation
import Logging
import ProvisioServer
import SQLKit
import Testing

/// `provisio audit verify`, the built binary against an SQLite file: a chain that holds prints
/// its length and head; after an owner drops the trigger and edits a line, it names that line
/// and exits 1.
@Suite struct AuditCLITests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func verifyPrintsTheHeadThenNamesTheEditedLine() async throws {
        let base = CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let database = base + "/p.sqlite"
        _ = try await CLIRunner.createTenant(name: "Audit Bank", database: database)

        let verified = try await CLIRunner.run(["audit", "verify", "--database", database])
        #expect(verified.status == 0, "\(verified.stderr)")
        let report = try Self.object(verified.stdout)
        #expect(report["lines"] as? Int == 3 && report["legacy_lines"] as? Int == 0)
        let head = try #require(report["head"] as? String)
        #expect(head.count == 64)
        let anchored = try await CLIRunner.run(["audit", "verify", "--database", database, "--anchor", "3:\(head)"])
        #expect(anchored.status == 0, "\(anchored.stderr)")

        // The owner's way around the append-only triggers.
        let handle = try await SQLiteDatabaseHandle.open(path: database, readers: 1, logger: Logger(label: "owner"))
        let editedID = try await handle.write { connection in
            try await connection.raw("DROP TRIGGER audit_events_no_update").run()
            try await connection.raw("UPDATE audit_events SET actor_type = 'api_key' WHERE chain_sequence = 2").run()
            return try await connection.raw("SELECT id FROM audit_events WHERE chain_sequence = 2").first()?
                .decode(column: "id", as: String.self)
        }
        await handle.shutdown()

        let broken = try await CLIRunner.run(["audit", "verify", "--database", database])
        #expect(broken.status == 1, "\(broken.stdout) \(broken.stderr)")
        let found = try #require(try Self.object(broken.stdout)["broken"] as? [String: Any])
        #expect(found["sequence"] as? Int == 2 && found["problem"] as? String == "hash_mismatch")
        #expect(found["id"] as? String == editedID && found["lines_verified"] as? Int == 1)
        #expect(broken.stderr.hasPrefix("error: audit_chain_broken: Audit line 2 ("), "\(broken.stderr)")

        let badAnchor = try await CLIRunner.run(["audit", "verify", "--database", database, "--anchor", "three:cafe"])
        #expect(badAnchor.status == 2 && badAnchor.stderr.hasPrefix("error: invalid_argument: "), "\(badAnchor.stderr)")
        #expect(!badAnchor.stderr.contains("three:cafe"))
    }
}
