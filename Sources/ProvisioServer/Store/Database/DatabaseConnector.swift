import Logging
import NIOSSL
import PostgresNIO
import ProvisioCore

/// Opens the database a location names.
public enum DatabaseConnector {
    public static func connect(_ location: DatabaseLocation, logger: Logger) async throws -> any DatabaseHandle {
        switch location {
        case .sqlite(let path):
            return try await SQLiteDatabaseHandle.open(path: path, logger: logger)
        case .postgres(let url):
            if let warning = transportWarning(url) { logger.warning("\(warning)") }
            try await probe(url, logger: logger)
            return PostgresDatabaseHandle(url: url, logger: logger)
        }
    }

    /// Connects once outside the pool, so that a refused login, a missing database or an
    /// unreachable server is reported at once with PostgreSQL's own reason; the pool would retry
    /// until its timeout and then say only that it gave up.
    static func probe(_ url: PostgresURL, logger: Logger) async throws {
        let place = "PostgreSQL at \(url.host):\(url.port)/\(url.database)"
        do {
            let tls: PostgresConnection.Configuration.TLS
            switch url.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            let configuration = PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.username, password: url.password, database: url.database,
                tls: tls)
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try await connection.close()
        } catch {
            throw ProvisioError(.databaseUnavailable, "Cannot connect to \(place): \(DatabaseFailure.describe(error)).")
        }
    }

    /// Card data and sealed secrets cross the wire to PostgreSQL: without `sslmode=require`
    /// anything between the server and the database can read (or, with `prefer`, downgrade) it.
    /// Loopback is exempt: nothing sits between.
    public static func transportWarning(_ url: PostgresURL) -> String? {
        guard url.tls != .require else { return nil }
        let host = url.host.lowercased()
        if host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]" || host.hasPrefix("/") {
            return nil
        }
        return "PostgreSQL at \(url.host) is reached without TLS (sslmode=\(url.tls.rawValue)); add sslmode=require to the URL."
    }
}
