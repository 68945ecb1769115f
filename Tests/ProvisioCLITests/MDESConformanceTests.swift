import Foundation
import ProvisioProcess
import Testing

/// Issue 23, item 4: every MDES message on the wire, both APIs and both directions, validated
/// against Provisio's own OpenAPI documents with a full JSON Schema validator
/// (`Tools/mdes-conformance`). The traffic is the independent MDES client's
/// (`Tools/mdes-blackbox`) against the built `provisio`: its requests to the listener (the
/// encryption matrix, declines, notifications, each bad-input case) with Provisio's answers, and
/// Provisio's signed Customer Service requests with the stand-in's answers. Needs python3 with
/// cryptography, jsonschema and yaml; without them it fails saying what to install.
@Suite struct MDESConformanceTests {
    static let root = MDESBlackBoxTests.root
    static let install =
        "Tools/mdes-conformance needs them. Install python3 with its cryptography, jsonschema and yaml modules (Debian: apt-get install python3 "
        + "python3-cryptography python3-jsonschema python3-yaml; elsewhere: pip install cryptography jsonschema pyyaml); "
        + ".ci/run installs them."

    @Test(.timeLimit(.minutes(5)))
    func everyCapturedMessageMatchesItsSchema() async throws {
        let python = try await ProgramLookup.requirePython3(
            importing: ["cryptography", "jsonschema", "yaml"], orInstall: Self.install)
        let capture = NSTemporaryDirectory() + "mdes-conformance-\(UUID().uuidString.prefix(8)).jsonl"
        defer { try? FileManager.default.removeItem(atPath: capture) }
        // The client's own verdicts are MDESBlackBoxTests'; here only its traffic matters.
        let run = try await ChildProcess.run(
            python,
            arguments: [
                Self.root.appendingPathComponent("Tools/mdes-conformance/capture_blackbox.py").path, "--provisio",
                CLIRunner.executable.path, "--out", capture,
            ], workingDirectory: Self.root.path)
        let validation = try await ChildProcess.run(
            python, arguments: [Self.root.appendingPathComponent("Tools/mdes-conformance/validate.py").path, capture],
            workingDirectory: Self.root.path)
        // The validator prints no message content, so its whole output can be shown.
        let report = validation.standardOutput + validation.standardError
        #expect(validation.status == 0, "validate.py exited \(validation.status):\n\(report)")
        let counts = Self.counts(validation.standardOutput)
        let missing = Self.required.filter { counts[$0.key, default: 0] < $0.value }.map(\.key).sorted()
        #expect(
            missing.isEmpty,
            """
            Too few exchanges of \(missing) (capture_blackbox.py exited \(run.status)):
            \(report)
            ---- the client's output:
            \(run.standardOutput.suffix(4000))\(run.standardError.suffix(4000))
            """)
    }

    /// What the capture must hold at least: the 12 variants of the matrix approved, each
    /// bad-input case refused, the yellow path, notifications, and every Customer Service call
    /// Provisio makes.
    static let required: [String: Int] = [
        "issuer-outbound authorizeService 200": 12 + 3,
        "issuer-outbound authorizeService 400": 8,
        "issuer-outbound notifyTokenUpdated 200": 2,
        "issuer-outbound getAccountInformation 400": 1,
        "issuer-outbound validateActivationCode 400": 1,
        // Yellow (the client sets the issuer's activation methods first, 663ef15): methods asked
        // for, a code delivered, a wrong and a right code checked, the activation told.
        "issuer-outbound requestActivationMethods 200": 1,
        "issuer-outbound deliverActivationCode 200": 1,
        "issuer-outbound validateActivationCode 200": 2,
        "issuer-outbound notifyServiceActivated 200": 1,
        "customer-service suspendToken 200": 1,
        "customer-service unsuspendToken 200": 1,
        "customer-service deleteToken 200": 1,
        "customer-service activateToken 200": 1,
        "customer-service searchTokens 200": 1,
        "customer-service suspendToken 401": 1,
    ]

    /// `COUNT <api> <operation> <status>: n` lines of validate.py.
    static func counts(_ output: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("COUNT ") {
            let parts = line.dropFirst(6).split(separator: ":")
            if parts.count == 2, let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) { counts[String(parts[0])] = n }
        }
        return counts
    }
}
