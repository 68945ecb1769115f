import ArgumentParser
import Foundation
import Logging
import ProvisioCore
import ProvisioServer

struct TenantsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenants", abstract: "Manage tenants (issuers) and their API keys.",
        subcommands: [Create.self, NetworkKey.self, MDESKey.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a tenant; prints {\"tenant_id\", \"api_key\"}. The key is shown once and stored only as a hash.")

        @Option(name: .long, help: "The tenant's name.") var name: String
        @Option(
            name: .long, help: "An SQLite file path or a postgres:// URL (default: PROVISIO_DATABASE_URL or ./provisio.sqlite).")
        var database: String?

        func run() async throws {
            try await runReportingErrorsAsync {
                try await withDatabase(database) { handle in
                    let access = AccessService(store: SQLProvisioStore(handle: handle), clock: SystemTimeSource())
                    let (tenant, apiKey) = try await AuditContext.$current.withValue(AuditContext(actor: .commandLine)) {
                        try await access.createTenant(name: name)
                    }
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys]
                    print(String(decoding: try encoder.encode(["tenant_id": tenant.id, "api_key": apiKey]), as: UTF8.self))
                }
            }
        }
    }

    struct NetworkKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "network-key",
            abstract: "Create a credential for the card network's token service to call this tenant's /v1/network API.")

        @Option(name: .customLong("tenant-id"), help: "The tenant.") var tenantID: String
        @Option(
            name: .customLong("rotate-overlap-seconds"),
            help: "Rotate: the tenant's other network keys keep working this long (0 to 604800), then fail.")
        var rotateOverlapSeconds: Int?
        @Option(
            name: .long, help: "An SQLite file path or a postgres:// URL (default: PROVISIO_DATABASE_URL or ./provisio.sqlite).")
        var database: String?

        func run() async throws {
            try await runReportingErrorsAsync {
                try await withDatabase(database) { handle in
                    let store = SQLProvisioStore(handle: handle)
                    guard try await store.tenantExists(id: tenantID) else {
                        throw ProvisioError(.tenantNotFound, "No tenant with the id \(tenantID).")
                    }
                    let access = AccessService(store: store, clock: SystemTimeSource())
                    let key = try await AuditContext.$current.withValue(AuditContext(actor: .commandLine)) {
                        try await access.createNetworkKey(tenantID: tenantID, retiringPreviousAfter: rotateOverlapSeconds)
                    }
                    print(#"{"network_key":"\#(key)","tenant_id":"\#(tenantID)"}"#)
                }
            }
        }
    }
}
