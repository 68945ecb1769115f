import Logging
import NIOSSL
import PostgresKit
import PostgresNIO
import ProvisioCore
import SQLKit

/// PostgreSQL through postgres-nio's `PostgresClient` pool. All shared state lives in the
/// database, so any number of `provisio serve` processes can point at the same one.
public final class PostgresDatabaseHandle: DatabaseHandle {
    public let engine = DatabaseEngine.postgres
    private let client: PostgresClient
    private let runner: Task<Void, Never>

    public init(url: PostgresURL, maximumConnections: Int = 20, logger: Logger) {
        let tls: PostgresClient.Configuration.TLS
        switch url.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(.makeClientConfiguration())
        case .require: tls = .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password, database: url.database, tls: tls)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.minimumConnections = 0
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        // The pool runs until shutdown; connections are made on demand. `Task.immediate` enters
        // `run()` before `init` returns, so no lease can come before it (PostgresClient warns on
        // every lease it sees before `run()`; a plain Task left that to the scheduler).
        if #available(macOS 26.0, iOS 26.0, *) {
            self.runner = Task.immediate { await client.run() }
        } else {
            self.runner = Task { await client.run() }
        }
    }

    public func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { try await body($0.sql(queryLogLevel: nil)) }
    }

    public func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await read(body)
    }

    public func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await connection.sql(queryLogLevel: nil).inTransaction(begin: "BEGIN", body)
        }
    }

    public func shutdown() async {
        runner.cancel()
        _ = await runner.value
    }
}
