import Foundation
import Testing

/// `provisio doctor` as CI runs it: exit status 0 on the example, 1 on a broken copy (with the
/// finding's code in the text and in --json), 2 on input it cannot examine, and --server
/// against a running `provisio serve`.
@Suite struct DoctorCLITests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/IssuerApp").path

    /// A copy of the example with `old` replaced by `new` in one file.
    func brokenCopy(_ file: String, _ old: String, _ new: String) throws -> String {
        let base = CLIRunner.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.example, toPath: base + "/IssuerApp")
        let path = base + "/IssuerApp/" + file
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old))
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: URL(fileURLWithPath: path))
        return base
    }

    @Test func theExampleIsClean() async throws {
        let result = try await CLIRunner.run(["doctor", Self.example])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("No findings."))
        let json = try await CLIRunner.run(["doctor", Self.example, "--json"])
        #expect(json.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((report["findings"] as? [Any])?.isEmpty == true)
        #expect((report["targets"] as? [Any])?.count == 3)
    }

    @Test func aBrokenCopyExitsOneWithTheCode() async throws {
        let base = try brokenCopy(
            "UIExtension/Info.plist", "<string>com.apple.PassKit.issuer-provisioning.authorization</string>",
            "<string>com.apple.PassKit.issuer-provisioning.authorisation</string>")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let result = try await CLIRunner.run(["doctor", base + "/IssuerApp"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "✗ doctor.extension_point_unknown  UIExtension/Info.plist → NSExtension.NSExtensionPointIdentifier"))
        #expect(result.stdout.contains("fix: Use exactly com.apple.PassKit.issuer-provisioning.authorization"))
        #expect(result.stdout.contains("1 finding (1 error, 0 warnings)."))

        let json = try await CLIRunner.run(["doctor", "--json", base + "/IssuerApp"])
        #expect(json.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: String]])
        #expect(findings.map { $0["code"] } == ["doctor.extension_point_unknown"])
        #expect(findings.first?["file"] == "UIExtension/Info.plist")
        #expect(findings.first?["key"] == "NSExtension.NSExtensionPointIdentifier")
    }

    @Test func theAppLaunchURLIsChecked() async throws {
        let result = try await CLIRunner.run(["doctor", Self.example, "--app-launch-url", "otherbank://verify"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("doctor.url_scheme_mismatch"))
    }

    @Test func unusableInputExitsTwo() async throws {
        let missing = try await CLIRunner.run(["doctor", "/nonexistent/provisio-app"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("error: doctor.input_not_found: "))
        #expect(missing.stdout.isEmpty)

        let base = CLIRunner.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        try Data([0x50, 0x4B, 0x03, 0x04, 0, 0]).write(to: URL(fileURLWithPath: base + "/Bank.ipa"))
        let ipa = try await CLIRunner.run(["doctor", "--json", base + "/Bank.ipa"])
        #expect(ipa.status == 2)
        #expect(ipa.stderr.hasPrefix("error: doctor.input_ipa_unsupported: "))
        let error = try #require(
            (try JSONSerialization.jsonObject(with: Data(ipa.stdout.utf8)) as? [String: Any])?["error"] as? [String: String])
        #expect(error["code"] == "doctor.input_ipa_unsupported")

        let plainHTTP = try await CLIRunner.run(["doctor", Self.example, "--server", "http://provisio.example.com"])
        #expect(plainHTTP.status == 2)
        #expect(plainHTTP.stderr.hasPrefix("error: doctor.invalid_argument: --server must use https"))
        let timeout = try await CLIRunner.run(["doctor", Self.example, "--timeout", "0"])
        #expect(timeout.status == 2)
    }

    @Test func theServerIsAskedWhetherItAnswers() async throws {
        let base = CLIRunner.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(try await CLIRunner.run(["keys", "init", "--dir", base + "/keys"]).status == 0)
        let server = try await ServerProcess(
            arguments: ["--database", base + "/provisio.sqlite", "--keys", base + "/keys"], logFile: base + "/server.log")
        try await server.waitUntilListening()

        let answered = try await CLIRunner.run(["doctor", Self.example, "--server", "http://127.0.0.1:\(server.port)"])
        #expect(answered.status == 0, "\(answered.stdout)\(answered.stderr)")
        #expect(answered.stdout.contains("No findings."))

        _ = await server.stop()
        let gone = try await CLIRunner.run(
            ["doctor", Self.example, "--json", "--timeout", "5", "--server", "http://127.0.0.1:\(server.port)"])
        #expect(gone.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(gone.stdout.utf8)) as? [String: Any])
        #expect((report["findings"] as? [[String: String]])?.map { $0["code"] } == ["doctor.server_unreachable"])
    }
}
