import Foundation
import ProvisioProcess
import Testing

/// The independent MDES client (`Tools/mdes-blackbox`, written from Mastercard's documents and
/// Provisio's public interface only) against the built `provisio`: every one of its checks must
/// pass. It needs python3 and the `cryptography` module; without them this test fails and says
/// what to install (everywhere, not only in CI: two small packages, and the client is the only
/// check of the listener that shares no code with it). `.ci/run` installs them.
@Suite struct MDESBlackBoxTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = root.appendingPathComponent("Tools/mdes-blackbox/run.py").path
    static let install =
        "The MDES black-box client (Tools/mdes-blackbox) needs them. Install python3 and its cryptography module (Debian: apt-get install python3 python3-cryptography; "
        + "elsewhere: pip install cryptography); .ci/run installs them."

    @Test(.timeLimit(.minutes(5)))
    func everyCheckOfTheIndependentClientPasses() async throws {
        let python = try await ProgramLookup.requirePython3(importing: ["cryptography"], orInstall: Self.install)
        let run = try await ChildProcess.run(
            python, arguments: [Self.script, "--provisio", CLIRunner.executable.path], workingDirectory: Self.root.path)
        let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        let summary = lines.last { $0.contains(" passed, ") }.map(String.init) ?? "no summary line"
        let failures = lines.filter { $0.hasPrefix("FAIL") }.joined(separator: "\n")
        #expect(
            run.status == 0,
            """
            python3 Tools/mdes-blackbox/run.py --provisio \(CLIRunner.executable.path) exited \(run.status): \(summary)
            \(failures)
            ---- its output:
            \(run.standardOutput)\(run.standardError)
            """)
    }
}
