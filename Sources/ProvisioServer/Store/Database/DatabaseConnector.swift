import Logging

/// Opens the database a location names.
public enum DatabaseConnector {
    public static func connect(_ location: DatabaseLocation, logger: Logger) async throws -> any DatabaseHandle {
        switch location {
        case .sqlite(let path):
            return try await SQLiteDatabaseHandle.open(path: path, logger: logger)
        case .postgres(let url):
            if let warning = transportWarning(url) { logger.warning("\(warning)") }
            return PostgresDatabaseHandle(url: url, logger: logger)
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
