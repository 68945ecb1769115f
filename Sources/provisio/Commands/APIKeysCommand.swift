import ArgumentParser
import Foundation
import ProvisioCore
import ProvisioServer

/// `provisio api-keys create|list|revoke`: the tenant's API keys from the server's own machine,
/// for the first key of a new program or when every key of a tenant is lost. Changes are in
/// the audit log as made at the command line.
struct APIKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-keys", abstract: "Create, list and revoke a tenant's API keys.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Options: ParsableArguments {
        @OptionGroup var tenant: TenantOptions

        var tenantID: String { tenant.tenantID }

        /// Runs `body` with the tenant's access service, as the command line.
        func withAccess(_ body: (AccessService) async throws -> Void) async throws {
            try await tenant.withTenantStore { store in try await body(AccessService(store: store, clock: SystemTimeSource())) }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a key; prints it as JSON with its secret, shown this once and stored only as a hash.")

        @OptionGroup var options: Options
        @Option(name: .long, help: "What the key is for (1 to 64 characters).") var name: String
        @Option(name: .long, help: "full, read_only or provisioning.") var scope: String = "full"

        func run() async throws {
            try await options.withAccess { access in
                let scope = try APIKeyScope(wire: scope)
                let (key, secret) = try await access.createAPIKey(tenantID: options.tenantID, name: name, scope: scope)
                print(APIKeyJSON.line(key, secret: secret))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tenant's keys, one JSON object per line.")

        @OptionGroup var options: Options

        func run() async throws {
            try await options.withAccess { access in
                for key in try await access.apiKeys(tenantID: options.tenantID) { print(APIKeyJSON.line(key)) }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a key; every server sharing the database refuses it from the next request on.")

        @OptionGroup var options: Options
        @Argument(help: "The key's id (key_…).") var keyID: String

        func run() async throws {
            try await options.withAccess { access in
                print(APIKeyJSON.line(try await access.revokeAPIKey(id: keyID, tenantID: options.tenantID)))
            }
        }
    }
}
