import Foundation
import Testing

/// `provisio demo --network mdes`: every scenario with the sandbox's card network speaking
/// Mastercard MDES to Provisio's MDES listener (mutual TLS) and Provisio calling the sandbox's
/// Customer Service API (OAuth 1.0a); and `sandbox serve --network mdes`'s clear refusals.
@Suite struct DemoMDESCLITests {
    @Test func theWholeDemoPassesThroughMDES() async throws {
        let result = try await CLIRunner.run(["demo", "--network", "mdes"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("Summary: 113 ✓, 0 ✗"), "\(result.stdout)")
        #expect(result.stdout.contains("MDES listener on https://127.0.0.1:"))
        for scenario in 1...14 {
            #expect(result.stdout.contains("\n[\(scenario)] "), "scenario \(scenario)")
        }
        #expect(!result.stdout.contains("  ✗ "))
        // MDES's words reached the network: its decisions and decline reason.
        #expect(result.stdout.contains("(APPROVED)") && result.stdout.contains("DO_NOT_HONOR"))
        for pan in [
            "4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "4000056655665556",
            "4012888888881881", "5105105105105100", "4242424242424242", "4000123456789017", "4000987654321017",
        ] {
            #expect(!result.stdout.contains(pan) && !result.stderr.contains(pan))
        }
    }

    @Test func mdesIsRefusedAgainstRunningServices() async throws {
        let result = try await CLIRunner.run(["demo", "--network", "mdes", "--server", "http://127.0.0.1:1", "--api-key", "k"])
        #expect(result.status == 2 && result.stderr.contains("error: invalid_argument: --network mdes"), "\(result.stderr)")
    }

    @Test func sandboxServeNamesTheMissingMDESFlags() async throws {
        let missing = try await CLIRunner.run(["sandbox", "serve", "--network", "mdes", "--port", "0"])
        #expect(missing.status == 2, "\(missing.stderr)")
        for flag in [
            "--mdes-issuer-url", "--mdes-client-cert", "--mdes-client-key", "--mdes-server-ca", "--mdes-issuer-public-key",
            "--mdes-oauth-public-key",
        ] {
            #expect(missing.stderr.contains(flag), "\(flag): \(missing.stderr)")
        }
        let stray = try await CLIRunner.run([
            "sandbox", "serve", "--issuer-url", "http://127.0.0.1:1", "--network-key", "prv_nk_x", "--mdes-client-cert", "c.pem",
        ])
        #expect(stray.status == 2 && stray.stderr.contains("--network mdes"), "\(stray.stderr)")
        let unknown = try await CLIRunner.run(["sandbox", "serve", "--network", "visa"])
        #expect(unknown.status != 0)
    }
}
