import Foundation
import Logging
import ProvisioServer
import SQLKit
import Testing

/// The engines every store and API test runs against: SQLite always; PostgreSQL when
/// `PROVISIO_TEST_POSTGRES_URL` names a server (CI sets it; `.ci/run` starts one).
enum TestEngine: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static var postgresURL: String? {
        let url = ProcessInfo.processInfo.environment["PROVISIO_TEST_POSTGRES_URL"]
        return url?.isEmpty == false ? url : nil
    }

    static var available: [TestEngine] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }
}

/// A fresh, empty, migrated database for one test, removed afterwards.
struct TestDatabase {
    let engine: TestEngine
    let location: DatabaseLocation
    let handle: any DatabaseHandle
    private let cleanup: @Sendable () async -> Void

    static func make(_ engine: TestEngine, logger: Logger = Logger(label: "test-db"), schemaVersion: Int = .max) async throws
        -> TestDatabase
    {
        switch engine {
        case .sqlite:
            let directory = NSTemporaryDirectory() + "provisio-test-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let location = DatabaseLocation.sqlite(path: directory + "/provisio.sqlite")
            // Small pools: hundreds of these databases are open at once while the suites run in
            // parallel, and each connection holds file descriptors (a CI machine's limit may be low).
            let handle = try await SQLiteDatabaseHandle.open(path: directory + "/provisio.sqlite", readers: 2, logger: logger)
            try await Migrator(handle: handle, upTo: schemaVersion).migrate()
            return TestDatabase(engine: engine, location: location, handle: handle) {
                await handle.shutdown()
                try? FileManager.default.removeItem(atPath: directory)
            }
        case .postgres:
            guard let adminURL = TestEngine.postgresURL else { throw TestSetupError("PROVISIO_TEST_POSTGRES_URL is not set") }
            let name = "provisio_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())"
            let admin = PostgresDatabaseHandle(url: try PostgresURL(adminURL), maximumConnections: 1, logger: logger)
            try await admin.write { try await $0.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
            var url = try PostgresURL(adminURL)
            url.database = name
            let handle = PostgresDatabaseHandle(url: url, maximumConnections: 4, logger: logger)
            try await Migrator(handle: handle, upTo: schemaVersion).migrate()
            return TestDatabase(engine: engine, location: .postgres(url), handle: handle) {
                await handle.shutdown()
                try? await admin.write { try await $0.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run() }
                await admin.shutdown()
            }
        }
    }

    func tearDown() async { await cleanup() }

    /// Runs `body` with a fresh database and always removes it; in one of the run's
    /// `ServerTestSlots`, so that only a few such tests share the cores at a time.
    static func with<T>(
        _ engine: TestEngine, logger: Logger = Logger(label: "test-db"), schemaVersion: Int = .max,
        _ body: (TestDatabase) async throws -> T
    ) async throws -> T {
        try await ServerTestSlots.run {
            let database = try await make(engine, logger: logger, schemaVersion: schemaVersion)
            do {
                let result = try await body(database)
                await database.tearDown()
                return result
            } catch {
                await database.tearDown()
                throw error
            }
        }
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
