import CSQLite
import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import Testing

@testable import ProvisioServer

/// The store's SQLite driver against SQLite itself: values round-trip exactly, statements are
/// kept and reused, failures carry SQLite's code and words and leave the connection usable.
@Suite struct SQLiteNativeConnectionTests {
    let directory = NSTemporaryDirectory() + "provisio-native-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    private func open(_ name: String = "n.sqlite") throws -> SQLiteNativeConnection {
        let connection = try SQLiteNativeConnection.open(path: directory + "/" + name)
        _ = try connection.query("PRAGMA journal_mode=WAL", [])
        return connection
    }

    @Test func everyKindOfValueRoundTripsExactly() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let connection = try open()
        defer { try? connection.close() }
        _ = try connection.query("CREATE TABLE v (k INTEGER PRIMARY KEY, x ANY) STRICT", [])
        let values: [SQLiteValue] = [
            .integer(.max), .integer(.min), .integer(0), .float(-1.5e300), .float(0.1),
            .text(""), .text("Zoë · 日本 · 🂡"), .text("a\u{0}b"), .blob([0, 1, 0xff]), .blob([]), .null,
        ]
        for (key, value) in values.enumerated() {
            _ = try connection.query("INSERT INTO v (k, x) VALUES (?, ?)", [.integer(Int64(key)), value])
        }
        let rows = try connection.query("SELECT k, x, typeof(x) AS type FROM v ORDER BY k", [])
        #expect(rows.map { $0.values[1] } == values)
        // An empty text or blob is not NULL.
        #expect(
            rows.map { $0.values[2] }[5...10] == [
                .text("text"), .text("text"), .text("text"), .text("blob"), .text("blob"), .text("null"),
            ])
        #expect(try rows[6].decode(column: "x", as: String.self) == "Zoë · 日本 · 🂡")
        #expect(try rows[10].decode(column: "x", as: String?.self) == nil)
        #expect(try rows[0].decode(column: "x", as: Int64.self) == .max)
    }

    @Test func statementsAreKeptReusedAndBounded() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let connection = try open()
        defer { try? connection.close() }
        let kept = connection.keptStatementCount  // the PRAGMA `open` ran
        for number in 0..<5 {
            let rows = try connection.query("SELECT ? + 1 AS next", [.integer(Int64(number))])
            #expect(rows.first?.values == [.integer(Int64(number) + 1)])
        }
        #expect(connection.keptStatementCount == kept + 1, "one statement, compiled once")
        let limit = SQLiteNativeConnection.statementCacheLimit
        for number in 0..<(limit + 10) {
            _ = try connection.query("SELECT \(number) AS n", [])
        }
        #expect(connection.keptStatementCount == limit)
        // The evicted first statement is compiled again and answers the same.
        #expect(try connection.query("SELECT ? + 1 AS next", [.integer(41)]).first?.values == [.integer(42)])
    }

    @Test func aTextWithTwoStatementsRunsNeither() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let connection = try open()
        defer { try? connection.close() }
        _ = try connection.query("CREATE TABLE t (x INTEGER)", [])
        #expect {
            _ = try connection.query("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)", [])
        } throws: { error in
            (error as? SQLiteFailure)?.code == SQLITE_MISUSE
        }
        #expect(try connection.query("SELECT count(*) AS n FROM t", []).first?.values == [.integer(0)])
        // Trailing semicolons and spaces are not a second statement.
        _ = try connection.query("INSERT INTO t VALUES (3);  \n", [])
        #expect(try connection.query("SELECT count(*) AS n FROM t", []).first?.values == [.integer(1)])
    }

    @Test func aFailureCarriesSQLitesCodeAndWordsAndNotTheValues() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let connection = try open()
        defer { try? connection.close() }
        _ = try connection.query("CREATE TABLE u (x TEXT UNIQUE)", [])
        _ = try connection.query("INSERT INTO u VALUES (?)", [.text("secret-value")])
        #expect {
            _ = try connection.query("INSERT INTO u VALUES (?)", [.text("secret-value")])
        } throws: { error in
            guard let failure = error as? SQLiteFailure else { return false }
            // SQLITE_CONSTRAINT_UNIQUE, a macro Swift does not import: SQLITE_CONSTRAINT | (8 << 8).
            return failure.code == SQLITE_CONSTRAINT | (8 << 8) && failure.primaryCode == SQLITE_CONSTRAINT
                && failure.message.contains("u.x") && !failure.message.contains("secret-value")
                && DatabaseFailure.isDriverError(failure)
        }
        // The failed statement was reset: it runs again, and so does the connection.
        _ = try connection.query("INSERT INTO u VALUES (?)", [.text("other-value")])
        #expect(try connection.query("SELECT count(*) AS n FROM u", []).first?.values == [.integer(2)])
    }

    @Test func aClosedConnectionRefusesQueries() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let connection = try open()
        try connection.close()
        #expect(throws: SQLiteFailure.self) { _ = try connection.query("SELECT 1 AS one", []) }
        try connection.close()  // a second close is harmless
    }

    @Test func aFileThatIsNotADatabaseFailsWithSQLitesWords() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: directory + "/bad.sqlite"))
        let connection = try SQLiteNativeConnection.open(path: directory + "/bad.sqlite")
        defer { try? connection.close() }
        #expect {
            _ = try connection.query("PRAGMA journal_mode=WAL", [])
        } throws: { error in
            (error as? SQLiteFailure)?.primaryCode == SQLITE_NOTADB
                && DatabaseFailure.describe(error) == "SQLite: file is not a database"
        }
    }

    /// At debug level the handle logs each statement's text, never its values (SQLKit's own log,
    /// used before, printed the binds: names, references, hashes, sealed records).
    @Test func statementsAreLoggedWithoutTheirValues() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let capture = LogCapture()
        let handle = try await SQLiteDatabaseHandle.open(path: directory + "/l.sqlite", readers: 1, logger: capture.logger())
        _ = try await handle.write { try await $0.raw("CREATE TABLE names (name TEXT)").run() }
        _ = try await handle.write { try await $0.raw("INSERT INTO names VALUES (\(bind: "Marguerite Bindvalue"))").run() }
        let read = try await handle.read {
            try await $0.raw("SELECT name FROM names").first(decodingColumn: "name", as: String.self)
        }
        await handle.shutdown()
        #expect(read == "Marguerite Bindvalue")
        #expect(capture.count(containing: "INSERT INTO names") == 1)
        #expect(capture.count(containing: "SELECT name FROM names") == 1)
        #expect(!capture.text.contains("Bindvalue"))
    }

    /// Reads run in place on a cooperative thread, so a reader must never wait for the write
    /// lock: the readers refuse every write, which goes to the one writer.
    @Test func theReadersRefuseToWrite() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let handle = try await SQLiteDatabaseHandle.open(
            path: directory + "/r.sqlite", readers: 2, logger: Logger(label: "readers-test"))
        try await handle.write { try await $0.raw("CREATE TABLE t (x INTEGER)").run() }
        await #expect {
            try await handle.read { try await $0.raw("INSERT INTO t VALUES (1)").run() }
        } throws: { error in
            (error as? SQLiteFailure)?.primaryCode == SQLITE_READONLY
        }
        try await handle.write { try await $0.raw("INSERT INTO t VALUES (2)").run() }
        let count = try await handle.read {
            try await $0.raw("SELECT count(*) AS n FROM t").first(decodingColumn: "n", as: Int.self)
        }
        #expect(count == 1)
        await handle.shutdown()
    }

    /// A read run in place that finds the database locked waits only briefly there, then moves
    /// to a pool thread to wait the full timeout, and answers once the lock is gone.
    @Test func aReadThatMustWaitMovesToThePoolAndStillAnswers() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A rollback journal, where a writer's exclusive lock does stop readers (WAL readers
        // must wait only while a log is being recovered, which a test cannot stage).
        let writer = try SQLiteNativeConnection.open(path: directory + "/b.sqlite")
        let reader = try SQLiteNativeConnection.open(path: directory + "/b.sqlite")
        defer {
            try? writer.close()
            try? reader.close()
        }
        _ = try writer.query("CREATE TABLE t (x INTEGER)", [])
        _ = try writer.query("INSERT INTO t VALUES (1)", [])
        try reader.setBusyTimeout(milliseconds: 20)
        _ = try writer.query("BEGIN EXCLUSIVE", [])
        _ = try writer.query("INSERT INTO t VALUES (2)", [])
        #expect {
            _ = try reader.query("SELECT count(*) AS n FROM t", [])
        } throws: { error in
            (error as? SQLiteFailure)?.primaryCode == SQLITE_BUSY
        }
        let database = SQLiteNativeDatabase(
            connection: reader, placement: .inPlace(retryPool: .singleton, patience: 10_000),
            logger: Logger(label: "busy-test"), eventLoop: MultiThreadedEventLoopGroup.singleton.any())
        let started = ContinuousClock.now
        async let count = database.raw("SELECT count(*) AS n FROM t").first(decodingColumn: "n", as: Int.self)
        try await Task.sleep(for: .milliseconds(300))
        _ = try writer.query("COMMIT", [])
        #expect(try await count == 2)
        #expect(ContinuousClock.now - started >= .milliseconds(300), "it waited for the lock")
        // The connection's own short timeout is back in place.
        _ = try writer.query("BEGIN EXCLUSIVE", [])
        #expect(throws: SQLiteFailure.self) { _ = try reader.query("SELECT count(*) AS n FROM t", []) }
        _ = try writer.query("COMMIT", [])
    }
}
