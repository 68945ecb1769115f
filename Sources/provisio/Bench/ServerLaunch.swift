import Foundation
import ProvisioCore
import ProvisioProcess

/// Starts `provisio serve` child processes for the benchmarks and learns each one's port from
/// its announcement, polled every 2 ms so a cold start is measured to the millisecond.
struct ServerLaunch: Sendable {
    /// A started server: `stop()` ends it gracefully; released without it, it is killed.
    struct Running: Sendable {
        let process: BackgroundProcess
        let port: Int

        func stop() async {
            await process.stop()
        }
    }

    let executable: String
    let directory: String
    let arguments: [String]

    func start(name: String) async throws -> Running {
        let logPath = directory + "/\(name).log"
        let process = try await BackgroundProcess.start(executable, arguments: arguments, logFile: logPath)
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
        await process.kill()
        throw ProvisioError(.internalError, "The server did not start within 60 s.")
    }
}
