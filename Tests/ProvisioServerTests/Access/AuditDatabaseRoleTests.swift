import Foundation
import Logging
import ProvisioCore
import SQLKit
import Testing

@testable import ProvisioServer

/// The deployment SECURITY.md describes: the owner role migrates, servers run under a role that
/// owns nothing and may only insert and read audit lines. Such a server starts, writes and
/// verifies the chain, and cannot drop or disable the triggers or change a line.
///
/// Needs a test role allowed to create roles (CREATEROLE); otherwise it is skipped.
@Suite struct AuditDatabaseRoleTests {
    static func mayCreateRoles() async throws -> Bool {
        guard let url = TestEngine.postgresURL else { return false }
        let admin = PostgresDatabaseHandle(url: try PostgresURL(url), maximumConnections: 1, logger: Logger(label: "probe"))
        do {
            let row = try await admin.read { database in
                try await database.raw(
                    "SELECT (rolcreaterole OR rolsuper) AS may FROM pg_roles WHERE rolname = current_user"
                ).first()
            }
            await admin.shutdown()
            return try row?.decode(column: "may", as: Bool.self) ?? false
        } catch {
            await admin.shutdown()
            throw error
        }
    }

    @Test(.enabled("the test role may create roles") { try await mayCreateRoles() })
    func aServerRoleThatOwnsNothingKeepsTheChainAndCannotTouchIt() async throws {
        let role = "provisio_app_\(UUID().uuidString.prefix(8).lowercased())"
        let adminURL = try PostgresURL(try #require(TestEngine.postgresURL))
        let admin = PostgresDatabaseHandle(url: adminURL, maximumConnections: 1, logger: Logger(label: "admin"))
        try await admin.write { try await $0.raw("CREATE ROLE \(unsafeRaw: role) LOGIN PASSWORD 'app'").run() }
        do {
            try await TestDatabase.with(.postgres) { database in
                guard case .postgres(var url) = database.location else { return }
                // The owner (the role that ran the migrations) grants what a server needs.
                let name = url.database
                try await database.handle.write { owner in
                    for statement in [
                        "GRANT CONNECT ON DATABASE \(name) TO \(role)",
                        "GRANT USAGE ON SCHEMA public TO \(role)",
                        "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role)",
                        "REVOKE UPDATE, DELETE ON audit_events, schema_migrations FROM \(role)",
                        "REVOKE INSERT ON schema_migrations FROM \(role)",
                    ] {
                        try await owner.raw(SQLQueryString(statement)).run()
                    }
                }
                url.username = role
                url.password = "app"
                let server = PostgresDatabaseHandle(url: url, maximumConnections: 2, logger: Logger(label: "app"))
                do {
                    // What `provisio serve` does at start.
                    #expect(try await Migrator(handle: server).migrate() == [])
                    let store = SQLProvisioStore(handle: server)
                    try await store.insertTenant(TenantRecord(id: "ten_a", name: "A", createdAt: Date()))
                    #expect(try await store.verifyAuditChain().get().lines == 2)
                    for statement in [
                        "DROP TRIGGER audit_events_append_only ON audit_events",
                        "ALTER TABLE audit_events DISABLE TRIGGER ALL",
                        "UPDATE audit_events SET reason = 'x'",
                        "DELETE FROM audit_events",
                        "TRUNCATE audit_events",
                    ] {
                        await #expect(throws: (any Error).self, "\(statement)") {
                            try await server.write { try await $0.raw(SQLQueryString(statement)).run() }
                        }
                    }
                    #expect(try await store.verifyAuditChain().get().lines == 2)
                } catch {
                    await server.shutdown()
                    throw error
                }
                await server.shutdown()
            }
        } catch {
            try? await admin.write { try await $0.raw("DROP ROLE IF EXISTS \(unsafeRaw: role)").run() }
            await admin.shutdown()
            throw error
        }
        try await admin.write { try await $0.raw("DROP ROLE IF EXISTS \(unsafeRaw: role)").run() }
        await admin.shutdown()
    }
}
