import Foundation
import ProvisioCore
import ProvisioProcess

/// Starts `provisio serve` child processes for the benchmarks and learns each one's port from
/// its announcement, polled every 2 ms so a cold start is measured to the millisecond; with
/// `--mdes-port`, the MDES listener's port from its own announcement too.
struct ServerLaunch: Sendable {
    /// A started server: `stop()` ends it gracefully; released without it, it is killed.
    struct Running: Sendable {
        let process: BackgroundProcess
        let port: Int
        /// The MDES listener's port, when started with `--mdes-port`.
        var mdesPort: Int?

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
        let needsMDES = arguments.contains("--mdes-port")
        while clock.now < deadline {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let port = Self.port(in: text, after: #"listening on https?://"#) {
                let mdesPort = Self.port(in: text, after: "MDES Issuer Outbound API on https://")
                if !needsMDES || mdesPort != nil { return Running(process: process, port: port, mdesPort: mdesPort) }
            }
            guard process.isRunning else { throw ProvisioError(.internalError, "The server exited: \(text)") }
            try await Task.sleep(for: .milliseconds(2))
        }
        await process.kill()
        throw ProvisioError(.internalError, "The server did not start within 60 s.")
    }

    /// The port of the first `<prefix>127.0.0.1:<port>` in the log.
    static func port(in text: String, after prefix: String) -> Int? {
        guard let range = text.range(of: prefix + #"127\.0\.0\.1:(\d+)"#, options: .regularExpression) else { return nil }
        return Int(text[range].split(separator: ":").last ?? "")
    }
}
