import Foundation
import ProvisioCore

/// Where the data lives: an SQLite file (the default, embedded) or a PostgreSQL URL.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresURL)

    public static let defaultSQLitePath = "./provisio.sqlite"

    /// `postgres://` or `postgresql://` URLs go to PostgreSQL; anything else is an SQLite path.
    public init(_ text: String) throws {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(try PostgresURL(text))
        } else {
            guard !text.isEmpty else {
                throw ProvisioError(.invalidDatabaseURL, "The database location is empty.")
            }
            self = .sqlite(path: text)
        }
    }

    /// Never prints a password.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let url): "postgres://\(url.username)@\(url.host):\(url.port)/\(url.database)"
        }
    }
}

/// The parts of a `postgres://user:password@host:port/database?sslmode=…` URL.
public struct PostgresURL: Sendable, Equatable {
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    public init(_ text: String) throws {
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            throw ProvisioError(
                .invalidDatabaseURL, "The PostgreSQL URL must look like postgres://user:password@host:5432/database.")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = components.user ?? "postgres"
        self.password = components.password
        let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        self.database = path.isEmpty ? username : path
        let mode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "disable"
        guard let tls = TLSMode(rawValue: mode == "verify-full" ? "require" : mode) else {
            throw ProvisioError(.invalidDatabaseURL, "sslmode must be disable, prefer or require.")
        }
        self.tls = tls
    }
}
