import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Measures `POST /v1/cards/{id}/provisioning/apple-pay` on a real `provisio serve` child
/// process (SQLite in a temporary directory) driven from this process over keep-alive
/// connections, and the ECC_V2 seal throughput in the same run for comparison.
struct ApplePayServerBenchmark {
    static let targetRequestsPerSecond = 2_000.0
    static let targetP99Milliseconds = 20.0

    let seconds: Int
    let connections: Int
    let executable: String

    func run() async throws -> String {
        let directory = NSTemporaryDirectory() + "provisio-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // Key material, the sandbox PKI and a tenant, as an issuer would set them up.
        try KeyDirectory(path: directory + "/keys").initialize()
        var profile = SandboxCAProfile(now: Date())
        profile.issuesRSALeaf = false
        let ca = try SandboxCertificateAuthority.generate(profile: profile)
        try SandboxCertificateAuthority.pem(ca.root).write(toFile: directory + "/root.pem", atomically: true, encoding: .utf8)
        let databasePath = directory + "/bench.sqlite"
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let handle = try await DatabaseConnector.connect(.sqlite(path: databasePath), logger: logger)
        try await Migrator(handle: handle).migrate()
        let (_, apiKey) = try await AccessService(store: SQLProvisioStore(handle: handle), clock: SystemTimeSource())
            .createTenant(name: "Bench Bank")
        await handle.shutdown()

        let server = Process()
        server.executableURL = URL(fileURLWithPath: executable)
        server.arguments = [
            "serve", "--host", "127.0.0.1", "--port", "0", "--database", databasePath, "--keys", directory + "/keys",
            "--trust-anchor", directory + "/root.pem",
        ]
        let logPath = directory + "/server.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        server.standardOutput = log
        server.standardError = log
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let port = try await Self.waitForPort(logPath: logPath, process: server)

        let cardID = try await Self.createCard(port: port, apiKey: apiKey)
        let body = try JSONSerialization.data(withJSONObject: [
            "certificates": try ca.chainBase64(for: .eccV2), "nonce": "3f2a9107", "nonce_signature": "3045022100ab",
            "device_type": "phone",
        ])
        let generator = HTTPLoadGenerator(
            host: "127.0.0.1", port: port, path: "/v1/cards/\(cardID)/provisioning/apple-pay",
            headers: [("Authorization", "Bearer \(apiKey)")], body: body, connections: connections, duration: .seconds(1))
        _ = try await generator.run()  // warm-up: caches, SQLite pages, connection setup
        var measured = generator
        measured.duration = .seconds(seconds)
        let result = try await measured.run()

        let seal = try SealBenchmark(totalSeconds: 3).run()
        return Self.report(result, seal: seal, connections: connections)
    }

    static func report(_ result: HTTPLoadGenerator.Result, seal: SealBenchmark.Report, connections: Int) -> String {
        let sorted = result.latenciesNanoseconds.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1_000_000
        }
        let seconds = Double(result.elapsed.components.seconds) + Double(result.elapsed.components.attoseconds) / 1e18
        let rate = Double(sorted.count) / seconds
        let p99 = percentile(0.99)
        let rateOK = rate >= targetRequestsPerSecond
        let latencyOK = p99 < targetP99Milliseconds
        return """
            Apple Pay endpoint benchmark (provisio serve child process, SQLite, \(ProcessInfo.processInfo.activeProcessorCount) cores, \
            \(connections) keep-alive connections from this process)
              requests           \(sorted.count) ok, \(result.failures) failed, in \(String(format: "%.1f", seconds)) s
              throughput         \(String(format: "%8.0f", rate)) requests/s   (target ≥ \(Int(targetRequestsPerSecond))) \(rateOK ? "✓" : "✗")
              latency p50        \(String(format: "%8.2f", percentile(0.50))) ms
              latency p90        \(String(format: "%8.2f", percentile(0.90))) ms
              latency p99        \(String(format: "%8.2f", p99)) ms   (target < \(Int(targetP99Milliseconds))) \(latencyOK ? "✓" : "✗")
              latency max        \(String(format: "%8.2f", sorted.last.map { Double($0) / 1_000_000 } ?? .nan)) ms
              seal throughput    \(String(format: "%8.0f", seal.sealsPerSecond)) ECC_V2 seals/s on one core, same run \
            (ratio to raw primitives \(String(format: "%.3f", seal.ratio)))
              requests / seals   \(String(format: "%8.3f", rate / seal.sealsPerSecond))
            """
    }

    static func waitForPort(logPath: String, process: Process) async throws -> Int {
        for _ in 0..<600 {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let range = log.range(of: #"listening on 127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                let port = Int(log[range].split(separator: ":").last ?? "")
            {
                return port
            }
            guard process.isRunning else { throw ProvisioError(.internalError, "The server exited: \(log)") }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ProvisioError(.internalError, "The server did not start within 60 s.")
    }

    static func createCard(port: Int, apiKey: String) async throws -> String {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/cards")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "customer_ref": "bench", "pan": "4111111111111111", "expiry_month": 12, "expiry_year": 2035,
            "cardholder_name": "Bench Customer",
        ])
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let id = json["id"] as? String else {
            throw ProvisioError(.internalError, "Creating the benchmark card failed.")
        }
        return id
    }
}
