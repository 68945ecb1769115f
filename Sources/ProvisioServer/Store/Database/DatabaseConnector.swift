import Logging

/// Opens the database a location names.
public enum DatabaseConnector {
    public static func connect(_ location: DatabaseLocation, logger: Logger) async throws -> any DatabaseHandle {
        switch location {
        case .sqlite(let path):
            return try await SQLiteDatabaseHandle.open(path: path, logger: logger)
        case .postgres(let url):
            return PostgresDatabaseHandle(url: url, logger: logger)
        }
    }
}
