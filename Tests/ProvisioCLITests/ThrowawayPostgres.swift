import Foundation
import Logging
import ProvisioServer
import SQLKit

/// A database of its own on the test PostgreSQL server (`PROVISIO_TEST_POSTGRES_URL`), for tests
/// that run `provisio` processes against PostgreSQL.
struct ThrowawayPostgres {
    let adminURL: PostgresURL
    let name: String
    let url: String

    static func create() async throws -> ThrowawayPostgres {
        let adminURL = try PostgresURL(ProcessInfo.processInfo.environment["PROVISIO_TEST_POSTGRES_URL"]!)
        let name = "provisio_crash_\(UUID().uuidString.prefix(8).lowercased())"
        let admin = PostgresDatabaseHandle(url: adminURL, maximumConnections: 1, logger: Logger(label: "admin"))
        do {
            try await admin.write { try await $0.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
        } catch {
            await admin.shutdown()
            throw error
        }
        await admin.shutdown()
        return ThrowawayPostgres(
            adminURL: adminURL, name: name,
            url: "postgres://\(adminURL.username):\(adminURL.password ?? "")@\(adminURL.host):\(adminURL.port)/\(name)")
    }

    func drop() async {
        let admin = PostgresDatabaseHandle(url: adminURL, maximumConnections: 1, logger: Logger(label: "admin"))
        try? await admin.write { try await $0.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run() }
        await admin.shutdown()
    }
}
