import Foundation
import Logging
import ProvisioServer
import Testing

/// `provisio api-keys` on the server's own machine: keys made and revoked at the command line
/// are what the store holds, and the audit log names the command line as their actor.
@Suite struct APIKeysCLITests {
    static func json(_ text: String) throws -> [String: String] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
    }

    @Test func keysAreCreatedListedAndRevoked() async throws {
        let base = CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let database = base + "/p.sqlite"
        let tenant = try Self.json(
            try await CLIRunner.run(["tenants", "create", "--name", "CLI Bank", "--database", database]).stdout)
        let tenantID = try #require(tenant["tenant_id"])

        let created = try await CLIRunner.run(
            [
                "api-keys", "create", "--tenant-id", tenantID, "--name", "mobile backend", "--scope", "provisioning",
                "--database", database,
            ])
        #expect(created.status == 0, "\(created.stderr)")
        let key = try Self.json(created.stdout)
        #expect(key["scope"] == "provisioning" && key["name"] == "mobile backend" && key["key"]?.hasPrefix("prv_sk_") == true)

        let listed = try await CLIRunner.run(["api-keys", "list", "--tenant-id", tenantID, "--database", database])
        let lines = try listed.stdout.split(separator: "\n").map { try Self.json(String($0)) }
        #expect(lines.map { $0["name"] } == ["default", "mobile backend"])
        #expect(lines.allSatisfy { $0["key"] == nil })

        let keyID = try #require(key["id"])
        let revoked = try await CLIRunner.run(["api-keys", "revoke", "--tenant-id", tenantID, "--database", database, keyID])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(try Self.json(revoked.stdout)["revoked_at"] != nil)

        // Bad input: a clear code on stderr, exit 2, nothing changed.
        let badScope = try await CLIRunner.run(
            ["api-keys", "create", "--tenant-id", tenantID, "--name", "x", "--scope", "admin", "--database", database])
        #expect(badScope.status == 2 && badScope.stderr.contains("invalid_parameter"))
        let unknownTenant = try await CLIRunner.run(["api-keys", "list", "--tenant-id", "ten_nope", "--database", database])
        #expect(unknownTenant.status == 2 && unknownTenant.stderr.contains("tenant_not_found"))
        let unknownKey = try await CLIRunner.run(
            ["api-keys", "revoke", "--tenant-id", tenantID, "--database", database, "key_nope"])
        #expect(unknownKey.status == 2 && unknownKey.stderr.contains("api_key_not_found"))

        let handle = try await DatabaseConnector.connect(.sqlite(path: database), logger: Logger(label: "t"))
        let log = try await SQLProvisioStore(handle: handle).auditEvents(
            tenantID: tenantID, filter: AuditFilter(targetType: "api_key", targetID: keyID), cursor: nil, limit: 10)
        await handle.shutdown()
        #expect(log.items.map(\.action) == ["api_key.revoked", "api_key.created"])
        #expect(log.items.allSatisfy { $0.actor == .commandLine })
    }
}

/// `provisio operators` on the server's own machine: the first admin of a tenant, a password
/// shown once or read from standard input, never its hash.
@Suite struct OperatorsCLITests {
    @Test func operatorsAreCreatedListedAndDisabled() async throws {
        let base = CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let database = base + "/p.sqlite"
        let tenant = try APIKeysCLITests.json(
            try await CLIRunner.run(["tenants", "create", "--name", "CLI Bank", "--database", database]).stdout)
        let tenantID = try #require(tenant["tenant_id"])
        let common = ["--tenant-id", tenantID, "--database", database]

        let generated = try await CLIRunner.run(
            ["operators", "create", "--email", "Lead@Bank.example", "--role", "admin"] + common)
        #expect(generated.status == 0, "\(generated.stderr)")
        let lead = try APIKeysCLITests.json(generated.stdout)
        #expect(lead["email"] == "lead@bank.example" && lead["role"] == "admin" && (lead["password"]?.count ?? 0) >= 12)

        let chosen = try await CLIRunner.run(
            ["operators", "create", "--email", "agent@bank.example", "--role", "support", "--password-stdin"] + common,
            stdin: Data("a long enough passphrase\n".utf8))
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(try APIKeysCLITests.json(chosen.stdout)["password"] == nil)
        let weak = try await CLIRunner.run(
            ["operators", "create", "--email", "weak@bank.example", "--role", "viewer", "--password-stdin"] + common,
            stdin: Data("short\n".utf8))
        #expect(weak.status == 2 && weak.stderr.contains("weak_password"))
        let duplicate = try await CLIRunner.run(
            ["operators", "create", "--email", "LEAD@bank.example", "--role", "viewer"] + common)
        #expect(duplicate.status == 2 && duplicate.stderr.contains("operator_exists"))
        let badRole = try await CLIRunner.run(["operators", "create", "--email", "x@bank.example", "--role", "root"] + common)
        #expect(badRole.status == 2 && badRole.stderr.contains("invalid_parameter"))

        let listed = try await CLIRunner.run(["operators", "list"] + common)
        let lines = try listed.stdout.split(separator: "\n").map { try APIKeysCLITests.json(String($0)) }
        #expect(lines.map { $0["email"] } == ["lead@bank.example", "agent@bank.example"])
        #expect(!listed.stdout.contains("$2b$") && !listed.stdout.contains("password"))

        let disabled = try await CLIRunner.run(["operators", "disable"] + common + [try #require(lead["id"])])
        #expect(disabled.status == 0, "\(disabled.stderr)")
        #expect(try APIKeysCLITests.json(disabled.stdout)["disabled_at"] != nil)
    }
}
