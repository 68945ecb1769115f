import Foundation
import ProvisioCore
import SQLKit

/// Applies pending migrations, each in its own transaction, recording them in
/// `schema_migrations`. On PostgreSQL an advisory lock makes concurrent starts of several
/// server processes apply each migration exactly once.
public struct Migrator: Sendable {
    public let handle: any DatabaseHandle
    let migrations: [Migration]

    public init(handle: any DatabaseHandle) {
        self.init(handle: handle, migrations: SchemaMigrations.all)
    }

    /// Applies migrations only up to `version`: how upgrade tests build an older schema.
    public init(handle: any DatabaseHandle, upTo version: Int) {
        self.init(handle: handle, migrations: SchemaMigrations.all.filter { $0.version <= version })
    }

    init(handle: any DatabaseHandle, migrations: [Migration]) {
        self.handle = handle
        self.migrations = migrations
    }

    /// Returns the versions applied by this call.
    @discardableResult
    public func migrate(now: Date = Date()) async throws -> [Int] {
        let engine = handle.engine
        try await failingClearly("Cannot create the schema_migrations table") {
            try await handle.write { database in
                // Looked for first: PostgreSQL checks the right to create before `IF NOT EXISTS`
                // looks, so a server role that may not create tables could not start otherwise.
                guard try await !Self.hasMigrationsTable(database, engine: engine) else { return }
                try await database.raw(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
                    """
                ).run()
            }
        }
        var applied: [Int] = []
        for migration in migrations {
            let didApply = try await failingClearly("Migration \(migration.version) (\(migration.name)) failed") {
                try await apply(migration, engine: engine, now: now)
            }
            if didApply { applied.append(migration.version) }
        }
        return applied
    }

    private static func hasMigrationsTable(_ database: any SQLDatabase, engine: DatabaseEngine) async throws -> Bool {
        let query: SQLQueryString =
            switch engine {
            case .sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
            case .postgres: "SELECT 1 AS present WHERE to_regclass('schema_migrations') IS NOT NULL"
            }
        return try await database.raw(query).first() != nil
    }

    /// Runs `body`; a driver's error becomes `database_migration_failed` saying what was being
    /// done and what the database answered (`DatabaseFailure`), instead of the driver's opaque text.
    private func failingClearly<T>(_ doing: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ProvisioError {
            throw error
        } catch {
            let hint = DatabaseFailure.hint(for: error).map { " " + $0 } ?? ""
            throw ProvisioError(.databaseMigrationFailed, "\(doing): \(DatabaseFailure.describe(error)).\(hint)")
        }
    }

    private func apply(_ migration: Migration, engine: DatabaseEngine, now: Date) async throws -> Bool {
        try await handle.transaction { database in
            if engine == .postgres {
                try await database.raw("SELECT pg_advisory_xact_lock(7270117)").run()
            }
            let existing = try await database.raw(
                "SELECT version FROM schema_migrations WHERE version = \(bind: migration.version)"
            ).all()
            guard existing.isEmpty else { return false }
            for statement in migration.statements(for: engine) {
                try await database.raw(SQLQueryString(statement)).run()
            }
            try await database.raw(
                """
                INSERT INTO schema_migrations (version, name, applied_at)
                VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: now.epochMilliseconds))
                """
            ).run()
            return true
        }
    }

    public func appliedVersions() async throws -> [Int] {
        try await handle.read { database in
            try await database.raw("SELECT version FROM schema_migrations ORDER BY version").all()
                .map { try $0.decode(column: "version", as: Int.self) }
        }
    }
}

extension Date {
    /// Timestamps are stored as BIGINT milliseconds since 1970 on both engines.
    var epochMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    init(epochMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(epochMilliseconds) / 1000)
    }
}
