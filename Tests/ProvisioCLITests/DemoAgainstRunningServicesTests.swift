import Foundation
import Logging
import ProvisioServer
import SQLKit
import Testing

/// The demo as an operator runs it against real deployments: `provisio serve`, `provisio
/// sandbox serve` wired to it, and `provisio demo --server … --sandbox …` — three processes
/// talking HTTP only, every scenario, on SQLite and on PostgreSQL.
@Suite struct DemoAgainstRunningServicesTests {
    static var databases: [String] {
        ["sqlite"] + (ProcessInfo.processInfo.environment["PROVISIO_TEST_POSTGRES_URL"]?.isEmpty == false ? ["postgres"] : [])
    }

    @Test(arguments: databases)
    func everyScenarioPassesAgainstRunningProcesses(_ engine: String) async throws {
        let base = CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let database = engine == "sqlite" ? base + "/provisio.sqlite" : try await ThrowawayPostgres.create().url

        #expect(try await CLIRunner.run(["keys", "init", "--dir", base + "/keys"]).status == 0)
        #expect(try await CLIRunner.run(["sandbox", "ca", "--out", base + "/ca"]).status == 0)
        let (_, apiKey, networkKey) = try await CLIRunner.createTenant(name: "Demo Bank", database: database)

        let server = try await ServerProcess(
            // The sandbox network's key for opaque payment cards, which `sandbox ca` wrote.
            arguments: [
                "--database", database, "--keys", base + "/keys", "--trust-anchor", base + "/ca/root.pem", "--network-key",
                base + "/ca/network-opc-public-key.pem",
            ],
            logFile: base + "/server.log")
        try await server.waitUntilListening()
        let sandboxKey = "sbx_key_" + UUID().uuidString.lowercased()
        let sandbox = try await ServerProcess(
            command: [
                "sandbox", "serve", "--port", "0", "--issuer-url", "http://127.0.0.1:\(server.port)", "--network-key", networkKey,
                "--tav-public-key", base + "/keys/tav-public-key.pem", "--ca-dir", base + "/ca", "--api-key", sandboxKey,
            ],
            logFile: base + "/sandbox.log")
        try await sandbox.waitUntilListening()

        let demo = try await CLIRunner.run([
            "demo", "--server", "http://127.0.0.1:\(server.port)", "--api-key", apiKey, "--sandbox",
            "http://127.0.0.1:\(sandbox.port)", "--sandbox-key", sandboxKey,
        ])
        #expect(demo.status == 0, "\(demo.stdout)\n\(demo.stderr)")
        #expect(demo.stdout.contains("Summary: ") && !demo.stdout.contains("  ✗ "), "\(demo.stdout)")
        for scenario in 1...8 { #expect(demo.stdout.contains("\n[\(scenario)] "), "scenario \(scenario)") }
        // A second run against the same deployment passes too (its customers are its own).
        let again = try await CLIRunner.run([
            "demo", "--server", "http://127.0.0.1:\(server.port)", "--api-key", apiKey, "--sandbox",
            "http://127.0.0.1:\(sandbox.port)", "--sandbox-key", sandboxKey, "--scenario", "5",
        ])
        // The standard error too: a trap's message is there (seen once: status 132 after a full summary).
        #expect(again.status == 0, "\(again.stdout)\n\(again.stderr)")

        #expect(await sandbox.stop() == 0)
        #expect(await server.stop() == 0)
        let logs = [server.logFile, sandbox.logFile].map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }
        for pan in [
            "4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "4000056655665556",
            "4000000000003220", "4012888888881881", "5200828282828210",
        ] {
            #expect(!demo.stdout.contains(pan) && !logs.contains { $0.contains(pan) }, "\(pan) leaked")
        }
        #expect(!logs.contains { $0.contains(sandboxKey) }, "neither process logs the connector key")
    }

    @Test func remoteModeNeedsItsKeys() async throws {
        let noKey = try await CLIRunner.run(["demo", "--server", "http://127.0.0.1:9"])
        #expect(noKey.status != 0 && noKey.stderr.contains("--api-key"))
        let stray = try await CLIRunner.run(["demo", "--api-key", "prv_sk_x"])
        #expect(stray.status != 0 && stray.stderr.contains("--server"))
        let unreachable = try await CLIRunner.run([
            "demo", "--server", "http://127.0.0.1:9", "--api-key", "prv_sk_x", "--sandbox-key", "sbx_key_12345678",
        ])
        #expect(
            unreachable.status == 2 && unreachable.stderr.contains("error: demo_server_unreachable:"), "\(unreachable.stderr)")
    }

    /// A new database on the test PostgreSQL server, as a URL.
}
