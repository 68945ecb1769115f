import PostgresNIO
import ProvisioCore

/// What an operator can be told about a driver's error: PostgreSQL's own message and SQLSTATE,
/// or SQLite's message — never the query or its bound values (which `String(reflecting:)` of a
/// `PSQLError` would print), and never PostgreSQL's "detail" field, which can quote row values.
///
/// For the command line and the server's start, whose reader runs the database. HTTP answers
/// keep to the generic `internal_error` (the wire never carries a driver's words).
public enum DatabaseFailure {
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as PSQLError:
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return "PostgreSQL: \(message)\(state)"
            }
            // Without the server's words: a connection-level failure; the cause (a refused
            // connection, a TLS failure) is NIO's, which names no secret.
            let cause = error.underlying.map { ": \($0)" } ?? ""
            return "PostgreSQL connection: \(error.code)\(cause)"
        case let error as SQLiteFailure:
            return "SQLite: \(error.message)"
        default:
            return "\(type(of: error))"
        }
    }

    /// Whether `error` comes from PostgreSQL or SQLite (rather than from Provisio).
    public static func isDriverError(_ error: any Error) -> Bool {
        error is PSQLError || error is SQLiteFailure
    }

    /// A hint for failures an operator meets when setting a database up.
    static func hint(for error: any Error) -> String? {
        guard let error = error as? PSQLError, error.serverInfo?[.sqlState] == "42501" else { return nil }
        return "The database user needs the privilege named above; on PostgreSQL 15 and later, ordinary users "
            + "may no longer create tables in the public schema of a database they do not own: create the "
            + "database with the user as its owner (CREATE DATABASE provisio OWNER provisio) or "
            + "GRANT CREATE ON SCHEMA public."
    }
}
