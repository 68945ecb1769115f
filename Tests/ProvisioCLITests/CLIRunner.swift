import Foundation
import ProvisioProcess
import Testing

/// Runs the `provisio` executable that `swift build` put next to the test bundle.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let executable: URL = {
        let candidates = [
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent(),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("provisio")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        fatalError("provisio executable not found next to the test bundle (looked in \(candidates.map(\.path)))")
    }()

    /// The repository's shared fixtures, copied into the crypto tests' folder.
    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ProvisioCryptoTests/Fixtures/\(name)")
    }

    /// `provisio tenants create` and `tenants network-key`, as an operator runs them.
    static func createTenant(name: String, database: String) async throws -> (
        tenantID: String, apiKey: String, networkKey: String
    ) {
        let tenant = try await run(["tenants", "create", "--name", name, "--database", database])
        #expect(tenant.status == 0, "\(tenant.stderr)")
        let created = try #require(try JSONSerialization.jsonObject(with: Data(tenant.stdout.utf8)) as? [String: String])
        let (tenantID, apiKey) = (try #require(created["tenant_id"]), try #require(created["api_key"]))
        let credential = try await run(["tenants", "network-key", "--tenant-id", tenantID, "--database", database])
        let networkKey = try #require(
            (try JSONSerialization.jsonObject(with: Data(credential.stdout.utf8)) as? [String: String])?["network_key"])
        return (tenantID, apiKey, networkKey)
    }

    /// Runs the binary to its exit (through ProvisioProcess: Foundation's `Process` crashes on
    /// Linux in a process with as many descriptors open as this suite's).
    static func run(_ arguments: [String], stdin: Data = Data()) async throws -> Result {
        let completed = try await ChildProcess.run(executable.path, arguments: arguments, input: stdin)
        return Result(status: completed.status, stdout: completed.standardOutput, stderr: completed.standardError)
    }

    static func temporaryDirectory() -> String {
        NSTemporaryDirectory() + "provisio-cli-\(UUID().uuidString)"
    }
}

private final class BundleMarker {}
