import Foundation
import ProvisioCore

/// Starts `provisio serve` child processes for the benchmarks and learns each one's port from
/// its announcement, polled every 2 ms so a cold start is measured to the millisecond.
struct ServerLaunch: Sendable {
    /// A started server; `stop()` terminates it and waits.
    struct Running: Sendable {
        let process: Process
        let port: Int

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }
    }

    let executable: String
    let directory: String
    let arguments: [String]

    func start(name: String) async throws -> Running {
        let logPath = directory + "/\(name).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        while clock.now < deadline {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"listening on https?://127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                let port = Int(text[range].split(separator: ":").last ?? "")
            {
                return Running(process: process, port: port)
            }
            guard process.isRunning else { throw ProvisioError(.internalError, "The server exited: \(text)") }
            try await Task.sleep(for: .milliseconds(2))
        }
        process.terminate()
        throw ProvisioError(.internalError, "The server did not start within 60 s.")
    }
}
