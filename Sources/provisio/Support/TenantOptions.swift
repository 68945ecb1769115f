import ArgumentParser
import ProvisioCore
import ProvisioServer

/// The options of the commands that manage one tenant's things (`api-keys`, `operators`): the
/// tenant and the database. Runs the command's body on the tenant's store, as the command
/// line in the audit log, reporting errors like every command.
struct TenantOptions: ParsableArguments {
    @Option(name: .customLong("tenant-id"), help: "The tenant.") var tenantID: String
    @Option(
        name: .long, help: "An SQLite file path or a postgres:// URL (default: PROVISIO_DATABASE_URL or ./provisio.sqlite).")
    var database: String?

    func withTenantStore(_ body: (SQLProvisioStore) async throws -> Void) async throws {
        try await runReportingErrorsAsync {
            try await withDatabase(database) { handle in
                let store = SQLProvisioStore(handle: handle)
                guard try await store.tenantExists(id: tenantID) else {
                    throw ProvisioError(.tenantNotFound, "No tenant with the id \(tenantID).")
                }
                try await AuditContext.$current.withValue(AuditContext(actor: .commandLine)) { try await body(store) }
            }
        }
    }
}
