import Foundation
import Logging
import ProvisioServer
import SQLKit
import Testing

/// A database that cannot be used gets the CLI contract — one line naming a stable code and what
/// the database answered, exit status 2 — not a driver's opaque text or a crash.
@Suite struct DatabaseErrorsCLITests {
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["PROVISIO_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    @Test func aFileThatIsNotASQLiteDatabaseIsRefusedClearly() async throws {
        let directory = NSTemporaryDirectory() + "provisio-dberr-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/notes.sqlite"
        try String(repeating: "not a database, just text. ", count: 20).write(toFile: path, atomically: true, encoding: .utf8)

        let result = try await CLIRunner.run(["tenants", "create", "--name", "Bank", "--database", path])
        // Before: the debug build trapped in SQLiteConnection's deinit (the connection that met
        // the bad file was dropped unclosed), and a release build printed SQLite's bare error.
        #expect(result.status == 2)
        #expect(
            result.stderr.hasSuffix(
                "error: database_unavailable: Cannot use \(path) as a SQLite database: SQLite: file is not a database.\n"),
            "\(result.stderr)")
        // Nothing was written over the file.
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("not a database"))
    }

    @Test(.enabled(if: postgresURL != nil))
    func aMissingPostgresDatabaseIsNamedWithPostgresReason() async throws {
        let admin = try PostgresURL(try #require(Self.postgresURL))
        let url = "postgres://\(admin.username):\(admin.password ?? "")@\(admin.host):\(admin.port)/provisio_absent_db"
        let result = try await CLIRunner.run(["tenants", "create", "--name", "Bank", "--database", url])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "error: database_unavailable: Cannot connect to PostgreSQL at \(admin.host):\(admin.port)/provisio_absent_db: "
                    + "PostgreSQL: database \"provisio_absent_db\" does not exist (SQLSTATE 3D000)."),
            "\(result.stderr)")
        if let password = admin.password { #expect(!result.stderr.contains(":\(password)@")) }
    }

    @Test(.enabled(if: postgresURL != nil))
    func anUnreachablePostgresIsReportedAtOnce() async throws {
        let result = try await CLIRunner.run([
            "tenants", "create", "--name", "Bank", "--database", "postgres://provisio:secret@127.0.0.1:1/provisio",
        ])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "error: database_unavailable: Cannot connect to PostgreSQL at 127.0.0.1:1/provisio: PostgreSQL connection:"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("secret"))
        // The probe's words, not the pool's: the pool retries until its timeout and then says
        // only "ConnectionPoolError".
        #expect(!result.stderr.contains("ConnectionPoolError"))
    }

    @Test(.enabled(if: postgresURL != nil))
    func aFailedMigrationSaysWhichAndWhy() async throws {
        let database = try await ThrowawayPostgres.create()
        func attempt() async throws {
            // A table in the way, of another shape than Provisio's bookkeeping.
            let handle = PostgresDatabaseHandle(
                url: try PostgresURL(database.url), maximumConnections: 1, logger: Logger(label: "test"))
            try await handle.write { try await $0.raw("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY)").run() }
            await handle.shutdown()

            let result = try await CLIRunner.run(["tenants", "create", "--name", "Bank", "--database", database.url])
            #expect(result.status == 2)
            #expect(
                result.stderr.contains("error: database_migration_failed: Migration 1 (")
                    && result.stderr.contains(
                        "failed: PostgreSQL: column \"name\" of relation \"schema_migrations\" does not exist (SQLSTATE 42703)."),
                "\(result.stderr)")
        }
        do {
            try await attempt()
        } catch {
            await database.drop()
            throw error
        }
        await database.drop()
    }
}
