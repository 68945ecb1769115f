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

/// Measures `POST /v1/cards/{id}/provisioning/apple-pay` on real `provisio serve` child
/// processes — one on SQLite in a temporary directory, or two sharing a PostgreSQL database —
/// driven from this process over keep-alive connections, saturated and then paced; the same
/// connections against a path no route serves, paced and saturated (the HTTP stack's own floor
/// and ceiling); then the ECC_V2 seal rate on one core in the same run, which the request rate is
/// held to (DESIGN.md: requests/s on two cores ≥ the single-core seal rate); then a cold start:
/// a fresh server process on the same data, from spawn to its first 200. Unless `mdes` is off,
/// the same servers also run MDES's listener, and `MDESAuthorizeBenchmark` measures its
/// `authorizeService` after the Apple Pay runs, for a section of its own next to them.
struct ApplePayServerBenchmark {
    /// DESIGN.md's target: the endpoint keeps at least this share of the same run's unrouted-404
    /// rate (about 0.5 ms of CPU per request on 2 cores). Judged against the HTTP stack's own rate
    /// on the same machine, it does not move with the machine's speed as requests / seals did.
    static let targetEndpointPerFloor = 0.35
    static let targetP99Milliseconds = 10.0

    let seconds: Int
    let connections: Int
    let executable: String
    /// A `postgres://` URL of a database the benchmark may write to (it adds a tenant and its
    /// rows); nil runs one server on a fresh SQLite file.
    var postgres: String?

    /// The paced run's rate, as a share of the saturated run's.
    var pacedShare = 0.5
    /// Whether to measure MDES's `authorizeService` too (about 2 × `seconds` more).
    var mdes = true

    private var serverCount: Int { postgres == nil ? 1 : 2 }

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
        let databaseArgument = postgres ?? directory + "/bench.sqlite"
        let database = try DatabaseLocation(databaseArgument)
        if postgres != nil, case .sqlite = database {
            throw ProvisioError(.invalidDatabaseURL, "--postgres takes a postgres:// URL.")
        }
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let handle = try await DatabaseConnector.connect(database, logger: logger)
        try await Migrator(handle: handle).migrate()
        let (tenant, apiKey) = try await AccessService(store: SQLProvisioStore(handle: handle), clock: SystemTimeSource())
            .createTenant(name: "Bench Bank")
        let mdesSetup =
            mdes
            ? try await MDESBenchmarkSetup.prepare(
                directory: directory, keysDirectory: directory + "/keys", handle: handle, tenantID: tenant.id) : nil
        await handle.shutdown()

        let launch = ServerLaunch(
            executable: executable, directory: directory,
            arguments: [
                "serve", "--host", "127.0.0.1", "--port", "0", "--database", databaseArgument, "--keys",
                directory + "/keys", "--trust-anchor", directory + "/root.pem",
            ])
        // Servers left behind by an error are killed when released (BackgroundProcess).
        // The measured servers also run the MDES listener; the cold start below does not.
        let measuredLaunch = ServerLaunch(
            executable: launch.executable, directory: directory, arguments: launch.arguments + (mdesSetup?.serveArguments ?? []))
        var servers: [ServerLaunch.Running] = []
        for index in 0..<serverCount {
            servers.append(try await measuredLaunch.start(name: "server-\(index)"))
        }

        let cardID = try await Self.createCard(port: servers[0].port, apiKey: apiKey)
        let body = try JSONSerialization.data(withJSONObject: [
            "certificates": try ca.chainBase64(for: .eccV2), "nonce": "3f2a9107", "nonce_signature": "3045022100ab",
            "device_type": "phone",
        ])
        let generator = HTTPLoadGenerator(
            host: "127.0.0.1", ports: servers.map(\.port), path: "/v1/cards/\(cardID)/provisioning/apple-pay",
            headers: [("Authorization", "Bearer \(apiKey)")], body: body, connections: connections, duration: .seconds(1))
        _ = try await generator.run()  // warm-up: caches, database pages, connection setup
        var measured = generator
        measured.duration = .seconds(seconds)
        let result = try await measured.run()
        // Then the latency a client sees when the server is not saturated: paced at half the
        // rate just measured (at saturation, latency is mostly the queue in front of it).
        var paced = measured
        paced.rate = Double(result.latenciesNanoseconds.count) / Self.seconds(result.elapsed) * pacedShare
        let pacedResult = try await paced.run()
        // The same schedule against a path no route serves: HTTP and the server's outer layers
        // only (no authentication, database or cryptography) — the floor the machine and the
        // HTTP stack set, next to which the endpoint's own latency reads.
        var floor = paced
        floor.path = "/bench-floor"
        floor.headers = []
        floor.expectedStatus = .notFound
        let floorResult = try await floor.run()
        // And that path as fast as the server answers it, over the same connections: the rate
        // the HTTP stack alone allows on this machine, which no endpoint can pass.
        var floorSaturated = floor
        floorSaturated.rate = nil
        floorSaturated.duration = measured.duration
        let floorSaturatedResult = try await floorSaturated.run()
        var mdesResult: MDESAuthorizeBenchmark.Result?
        if let mdesSetup {
            mdesResult = try await runMDES(mdesSetup, servers: servers, apiKey: apiKey, appleRate: Self.rate(result))
        }
        for server in servers { await server.stop() }
        servers = []

        let seal = try await SealBenchmark(totalSeconds: 3, withPythonReference: false).run()
        let coldStart = try await Self.coldStart(launch: launch, request: generator)
        let apple = report(
            result, paced: pacedResult, floor: floorResult, floorSaturated: floorSaturatedResult, seal: seal,
            coldStart: coldStart, database: database)
        guard let mdesResult else { return apple }
        let appleP50 = Self.percentile(0.50, of: result.latenciesNanoseconds.sorted())
        return apple + "\n" + mdesResult.section(connections: connections, appleRate: Self.rate(result), appleP50: appleP50)
    }

    /// The MDES runs on the running servers: a Mastercard card of the tenant, then
    /// `authorizeService` saturated and paced.
    private func runMDES(_ setup: MDESBenchmarkSetup, servers: [ServerLaunch.Running], apiKey: String, appleRate: Double)
        async throws -> MDESAuthorizeBenchmark.Result
    {
        let mdesPorts = servers.compactMap(\.mdesPort)
        guard mdesPorts.count == servers.count else {
            throw ProvisioError(.internalError, "A server did not announce its MDES listener.")
        }
        let card = (pan: "5555555555554444", month: 12, year: 2035)
        _ = try await Self.createCard(port: servers[0].port, apiKey: apiKey, pan: card.pan, expiry: (card.month, card.year))
        var benchmark = MDESAuthorizeBenchmark(
            setup: setup,
            requests: MDESAuthorizeRequests(
                encryptor: setup.encryptor, pan: card.pan, expiryMonth: String(card.month),
                expiryYear: String(card.year % 100)),
            ports: mdesPorts, seconds: seconds, connections: connections)
        benchmark.pacedShare = pacedShare
        return try await benchmark.run(rateHint: appleRate)
    }

    /// Requests answered per second of the run.
    static func rate(_ result: HTTPLoadGenerator.Result) -> Double {
        Double(result.latenciesNanoseconds.count) / seconds(result.elapsed)
    }

    /// A new server process on the data the run left, from spawn to the first 200 of the Apple
    /// Pay endpoint (first chain validation, first database pages, first key loads included).
    static func coldStart(launch: ServerLaunch, request: HTTPLoadGenerator) async throws -> Duration {
        let start = ContinuousClock.now
        let server = try await launch.start(name: "cold")
        let once = HTTPLoadGenerator(
            host: request.host, ports: [server.port], path: request.path, headers: request.headers, body: request.body,
            connections: 1, duration: .zero)
        let result = try await once.run()
        guard result.failures == 0, result.latenciesNanoseconds.count == 1 else {
            throw ProvisioError(.internalError, "The cold server's first Apple Pay request failed.")
        }
        let elapsed = ContinuousClock.now - start
        await server.stop()
        return elapsed
    }

    /// The `p` quantile of `latencies`, in milliseconds.
    static func percentile(_ p: Double, of sorted: [UInt64]) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1_000_000
    }

    func report(
        _ result: HTTPLoadGenerator.Result, paced: HTTPLoadGenerator.Result, floor: HTTPLoadGenerator.Result,
        floorSaturated: HTTPLoadGenerator.Result, seal: SealBenchmark.Report, coldStart: Duration, database: DatabaseLocation
    ) -> String {
        let sorted = result.latenciesNanoseconds.sorted()
        func percentile(_ p: Double) -> Double { Self.percentile(p, of: sorted) }
        let pacedSorted = paced.latenciesNanoseconds.sorted()
        let pacedRate = Double(pacedSorted.count) / Self.seconds(paced.elapsed)
        let pacedP99 = Self.percentile(0.99, of: pacedSorted)
        let floorSorted = floor.latenciesNanoseconds.sorted()
        let seconds = Self.seconds(result.elapsed)
        let rate = Double(sorted.count) / seconds
        let p99 = percentile(0.99)
        let perSeal = rate / seal.sealsPerSecond
        let floorRate = Double(floorSaturated.latenciesNanoseconds.count) / Self.seconds(floorSaturated.elapsed)
        let engine =
            switch database {
            case .sqlite: "SQLite, one provisio serve process"
            case .postgres: "PostgreSQL, two provisio serve processes"
            }
        func mark(_ ok: Bool) -> String { ok ? "✓" : "✗" }
        return """
            Apple Pay endpoint benchmark (\(engine), \(ProcessInfo.processInfo.activeProcessorCount) cores, \
            \(connections) keep-alive connections from this process)
              requests           \(sorted.count) ok, \(result.failures) failed, in \(String(format: "%.1f", seconds)) s   \
            (target 0 failed) \(mark(result.failures == 0))
              throughput         \(String(format: "%8.0f", rate)) requests/s
              latency p50        \(String(format: "%8.2f", percentile(0.50))) ms
              latency p90        \(String(format: "%8.2f", percentile(0.90))) ms
              latency p99        \(String(format: "%8.2f", p99)) ms   (target < \(Int(Self.targetP99Milliseconds))) \(mark(p99 < Self.targetP99Milliseconds))
              latency max        \(String(format: "%8.2f", sorted.last.map { Double($0) / 1_000_000 } ?? .nan)) ms
              seal throughput    \(String(format: "%8.0f", seal.sealsPerSecond)) ECC_V2 seals/s on one core, same run
              requests / seals   \(String(format: "%8.3f", perSeal))
              cold start         \(String(format: "%8.1f", Self.seconds(coldStart) * 1000)) ms   (a new process on this data: spawn → first 200)
            paced at \(Int((pacedShare * 100).rounded())) % of the throughput above (\(String(format: "%.0f", pacedRate)) requests/s on a fixed schedule, \
            latency from each request's slot)
              requests           \(pacedSorted.count) ok, \(paced.failures) failed   (target 0 failed) \(mark(paced.failures == 0))
              latency p50        \(String(format: "%8.2f", Self.percentile(0.50, of: pacedSorted))) ms
              latency p99        \(String(format: "%8.2f", pacedP99)) ms   (target < \(Int(Self.targetP99Milliseconds))) \(mark(pacedP99 < Self.targetP99Milliseconds))
            the same schedule against a path no route serves (HTTP only: no authentication, database or cryptography)
              requests           \(floorSorted.count) answered 404, \(floor.failures) otherwise
              latency p50        \(String(format: "%8.2f", Self.percentile(0.50, of: floorSorted))) ms
              latency p99        \(String(format: "%8.2f", Self.percentile(0.99, of: floorSorted))) ms   (the floor: what the endpoint adds is above it)
              saturated          \(String(format: "%8.0f", floorRate)) requests/s, \(floorSaturated.failures) otherwise   \
            (the most any endpoint could answer here)
              endpoint / floor   \(String(format: "%8.3f", rate / floorRate))   \
            (target ≥ \(Self.targetEndpointPerFloor): the share of the HTTP stack's own rate the endpoint keeps) \
            \(mark(rate / floorRate >= Self.targetEndpointPerFloor))
              floor / seals      \(String(format: "%8.3f", floorRate / seal.sealsPerSecond))   (requests / seals cannot pass this)
            """
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func createCard(
        port: Int, apiKey: String, pan: String = "4111111111111111", expiry: (month: Int, year: Int) = (12, 2035)
    ) async throws -> String {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/cards")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "customer_ref": "bench", "pan": pan, "expiry_month": expiry.month, "expiry_year": expiry.year,
            "cardholder_name": "Bench Customer",
        ])
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let id = json["id"] as? String else {
            throw ProvisioError(.internalError, "Creating the benchmark card failed.")
        }
        return id
    }
}
