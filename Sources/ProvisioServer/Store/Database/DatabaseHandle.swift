import SQLKit

/// The database as the store sees it: SQLKit connections lent out for a read, a write, or a
/// transaction. SQLite and PostgreSQL implement it; nothing above the store knows which.
public protocol DatabaseHandle: Sendable {
    var engine: DatabaseEngine { get }
    /// A connection for statements that only read.
    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// A connection for single-statement writes (atomic on their own).
    func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Several statements that commit together or not at all.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    func shutdown() async
}

public enum DatabaseEngine: String, Sendable {
    case sqlite
    case postgres
}

extension SQLDatabase {
    /// Runs `body` between `begin` and COMMIT on this one connection; ROLLBACK if it throws.
    func inTransaction<T: Sendable>(begin: String, _ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await raw(SQLQueryString(begin)).run()
        do {
            let result = try await body(self)
            try await raw("COMMIT").run()
            return result
        } catch {
            try? await raw("ROLLBACK").run()
            throw error
        }
    }
}
