import Foundation
import Testing

/// `provisio demo` is the first thing a newcomer runs: it must pass every step of every
/// scenario and never print a PAN.
@Suite struct DemoCLITests {
    @Test func theWholeDemoPasses() async throws {
        let result = try await CLIRunner.run(["demo"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("Summary: 113 ✓, 0 ✗"), "\(result.stdout)")
        for scenario in 1...14 {
            #expect(result.stdout.contains("\n[\(scenario)] "), "scenario \(scenario)")
        }
        #expect(!result.stdout.contains("not yet"))
        #expect(!result.stdout.contains("  ✗ "))
        for pan in [
            "4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "4000056655665556",
            "4012888888881881", "5105105105105100", "4242424242424242", "4000000000003220", "5200828282828210",
            "4000123456789017", "4000987654321017",
        ] {
            #expect(!result.stdout.contains(pan) && !result.stderr.contains(pan))
        }
    }

    @Test func oneScenarioRunsWithWhatItBuildsOn() async throws {
        let red = try await CLIRunner.run(["demo", "--scenario", "7"])
        #expect(red.status == 0, "\(red.stdout)")
        #expect(red.stdout.contains("[7] Red path") && !red.stdout.contains("[1] "))
        #expect(red.stdout.contains("device_score_too_low"))
        let lifecycle = try await CLIRunner.run(["demo", "--scenario", "8"])
        #expect(lifecycle.status == 0, "\(lifecycle.stdout)")
        #expect(lifecycle.stdout.contains("[1] ") && lifecycle.stdout.contains("[2] ") && lifecycle.stdout.contains("[8] "))
        // Google Pay's cardholder deletion builds on its green path.
        let deletion = try await CLIRunner.run(["demo", "--scenario", "13"])
        #expect(deletion.status == 0, "\(deletion.stdout)")
        #expect(deletion.stdout.contains("[10] ") && deletion.stdout.contains("[13] ") && !deletion.stdout.contains("[12] "))
        #expect(!deletion.stdout.contains("  ✗ "), "\(deletion.stdout)")
        let bad = try await CLIRunner.run(["demo", "--scenario", "22"])
        #expect(bad.status == 2 && bad.stderr.contains("error: invalid_argument: --scenario"), "\(bad.stderr)")
    }
}
