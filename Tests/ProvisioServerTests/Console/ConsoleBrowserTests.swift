import Foundation
import ProvisioCore
import ProvisioProcess
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// A support call end to end in a real headless Chromium (Debian's `chromium`, driven by
/// Selenium; `.ci/browser.sh` installs both and prints the Python to use, which
/// `PROVISIO_TEST_BROWSER` names): sign in, find the customer's token by the card's last four
/// digits, see it pending verification, activate it by customer service with a reason, see it
/// active and the audit entry appear. Then the sandbox pass is active too. The same search finds
/// the card's Google Pay token (pushed through the sandbox's Google Wallet), named as such with
/// its device, next to the Apple Pay one. The token page's
/// screenshot goes to `PROVISIO_CONSOLE_SCREENSHOT` (the README's picture) or a temporary file.
@Suite struct ConsoleBrowserTests {
    static let python: String? = {
        let value = ProcessInfo.processInfo.environment["PROVISIO_TEST_BROWSER"] ?? ""
        return value.isEmpty ? nil : value
    }()

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Browser/console_support_call.py").path
    }

    @Test func continuousIntegrationRunsTheBrowserTest() {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            #expect(
                Self.python != nil, "CI=true but PROVISIO_TEST_BROWSER is not set: .ci/run must export it from .ci/browser.sh")
        }
    }

    // A bound for a hang, not a speed: it counts the wait for a ServerTestSlots slot too.
    @Test(.enabled(if: python != nil), .timeLimit(.minutes(10)))
    func aSupportCallInTheBrowser() async throws {
        let python = try #require(Self.python)
        try await TestServer.run(.sqlite, clock: .live(), secureConsoleCookies: false) { server in
            try await SandboxNetworkHarness.run(
                server, defaultRisk: RiskAssessment(deviceScore: 2, accountScore: 5, walletRecommendation: .approve)
            ) { h in
                let outcome = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                let serial = try #require(outcome.pass?.serialNumber)
                #expect(await h.wallet.pass(serialNumber: serial)?.activationState == .requiresActivation)
                // The same card in Google Wallet on an Android phone (legacy push).
                let google = SandboxGoogleWallet(tokenService: h.network)
                let pushed = try await h.pushTokenize(try await h.googlePushData(), into: google)
                let agent = try await server.makeOperator(tenantID: h.tenantID, role: .support, email: "agent@bank.example")
                // Kept only where PROVISIO_CONSOLE_SCREENSHOT asks (docs/console-token-page.png).
                let asked = ProcessInfo.processInfo.environment["PROVISIO_CONSOLE_SCREENSHOT"]
                let screenshot = asked ?? NSTemporaryDirectory() + "provisio-console-\(UUID().uuidString).png"
                defer { if asked == nil { try? FileManager.default.removeItem(atPath: screenshot) } }
                let reason = "Caller verified: date of birth and last payment"

                let run = try await Self.run(
                    python,
                    [
                        Self.script, "--url", "http://127.0.0.1:\(try #require(server.raw.port))", "--tenant", h.tenantID,
                        "--email", agent.email,
                        "--password", agent.password, "--last4", String(SandboxNetworkHarness.pan.suffix(4)), "--reason",
                        reason, "--screenshot", screenshot, "--google-token", pushed.issuerTokenID, "--google-device",
                        "phone",
                    ])
                #expect(run.status == 0, "the browser run failed: \(run.output)")
                #expect(run.output.contains(#""ok": true"#) && run.output.contains(outcome.issuerTokenID), "\(run.output)")
                #expect(run.output.contains(#""google_token_id": "\#(pushed.issuerTokenID)""#), "\(run.output)")

                // What the agent did reached the network and Wallet.
                #expect(await h.wallet.pass(serialNumber: serial)?.activationState == .activated)
                #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.state == .active)
                let audit = try await server.services.audit.events(
                    tenantID: h.tenantID, filter: AuditFilter(targetType: "token", targetID: outcome.issuerTokenID), cursor: nil,
                    limit: 10)
                let entry = try #require(audit.items.first)
                #expect(entry.action == "token.activated" && entry.actor == AuditActor(.operator, id: agent.id))
                #expect(entry.reason == reason && entry.requestID?.hasPrefix("req_") == true)
                let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
                #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
            }
        }
    }

    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let completed = try await ChildProcess.run(executable, arguments: arguments)
        return (completed.status, completed.standardOutput + completed.standardError)
    }
}
