import Foundation
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

    /// Runs the binary and waits for it on a dispatch thread: a test that blocked one of Swift
    /// concurrency's threads for a subprocess would starve every other test in the process
    /// (two cores, two threads).
    static func run(_ arguments: [String], stdin: Data = Data()) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try blockingRun(arguments, stdin: stdin) })
            }
        }
    }

    private static func blockingRun(_ arguments: [String], stdin: Data) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: stdin)
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    static func temporaryDirectory() -> String {
        NSTemporaryDirectory() + "provisio-cli-\(UUID().uuidString)"
    }
}

private final class BundleMarker {}
