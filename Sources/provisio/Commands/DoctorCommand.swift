import ArgumentParser
import Foundation
import ProvisioDoctor

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check an issuer app's Wallet setup: extensions, entitlements, App Group, card art, URL scheme, server.",
        discussion: """
            PATH is a folder holding the app and its extensions, an .xcodeproj, or a built .app (an .ipa must be
            unzipped first). Reads the Info.plists (XML or binary), entitlements and card art and reports each
            misconfiguration with a stable code, the file and key, and the fix. With --server, also asks that
            Provisio whether it answers as the app needs. Exit status: 0 nothing found, 1 findings, 2 unusable
            input (one `error: <code>: <message>` line on standard error).
            """
    )

    @Argument(help: "A folder with the app and its extensions, an .xcodeproj, or a built .app.")
    var path: String

    @Flag(name: .long, help: "Print the report as JSON (for CI).")
    var json = false

    @Option(name: .long, help: "A running Provisio to ask (https, or http on loopback).")
    var server: String?

    @Option(name: .customLong("app-launch-url"), help: "The card profile's appLaunchURL, to match against the app's URL schemes.")
    var appLaunchURL: String?

    @Option(name: .long, help: "Seconds each --server request may take (1-60).")
    var timeout = 10

    func run() async throws {
        let report: DoctorReport
        do {
            report = try await examine()
        } catch {
            FileHandle.standardError.write(Data("error: \(error.code.rawValue): \(error.message)\n".utf8))
            if json {
                let object = ["error": ["code": error.code.rawValue, "message": error.message]]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
            }
            throw ExitCode(2)
        }
        if json {
            print(String(decoding: report.json(), as: UTF8.self))
        } else {
            print(Self.render(report), terminator: "")
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    private func examine() async throws(DoctorError) -> DoctorReport {
        guard (1...60).contains(timeout) else {
            throw DoctorError(.invalidArgument, "--timeout must be between 1 and 60 seconds.")
        }
        let serverURL = try server.map { (text: String) throws(DoctorError) in try ServerProbe.validate(text) }
        var report = try Doctor(appLaunchURL: appLaunchURL).examine(path)
        if let serverURL {
            report.findings += await ServerProbe(timeoutSeconds: Int64(timeout)).probe(serverURL)
        }
        return report
    }

    static func render(_ report: DoctorReport) -> String {
        var text = "provisio doctor: \(report.path) (\(report.kind.rawValue))\n"
        let roles: [ProjectTarget.Role: String] = [
            .app: "app", .nonUIExtension: "non-UI extension", .uiExtension: "UI extension", .otherExtension: "extension",
        ]
        for target in report.targets {
            let files = [target.infoPlist, target.entitlements].compactMap { $0 }.joined(separator: " · ")
            text +=
                "  \(roles[target.role, default: ""].padding(toLength: 17, withPad: " ", startingAt: 0))\(target.name): \(files)\n"
        }
        for finding in report.findings {
            let place = [finding.file, finding.key].compactMap { $0 }.joined(separator: " → ")
            text += "\n\(finding.severity == .error ? "✗" : "!") \(finding.code.rawValue)\(place.isEmpty ? "" : "  \(place)")\n"
            text += "    \(finding.message)\n    fix: \(finding.fix)\n"
        }
        if !report.notes.isEmpty {
            text += "\nNot verified:\n" + report.notes.map { "  - \($0)\n" }.joined()
        }
        let errors = report.findings.filter { $0.severity == .error }.count
        let warnings = report.findings.count - errors
        text +=
            report.findings.isEmpty
            ? "\nNo findings.\n"
            : "\n\(report.findings.count) finding\(report.findings.count == 1 ? "" : "s") (\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")).\n"
        return text
    }
}
