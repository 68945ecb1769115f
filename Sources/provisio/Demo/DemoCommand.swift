import ArgumentParser
import Foundation
import ProvisioCore

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play the provisioning flows end to end against an embedded server and the sandbox.",
        discussion: """
            Starts Provisio on SQLite in a temporary directory, a webhook receiver, and the sandbox (iPhone and Watch,
            Apple's provisioning service, the card network) as its own HTTP service, then plays each scenario with one
            ✓ or ✗ per step. With --server, plays against a running Provisio and a running `provisio sandbox serve`
            wired to it (see the README). Exits non-zero if any step fails.
            """
    )

    @Option(name: .long, help: "Run only this scenario (1-\(DemoScenarios.titles.count)).") var scenario: Int?
    @Flag(
        name: .customLong("keep-running"),
        help: "Keep the embedded server, sandbox and console up after the scenarios (Ctrl-C ends).")
    var keepRunning = false
    @Option(name: .long, help: "A running Provisio (e.g. http://127.0.0.1:8080) instead of the embedded one.")
    var server: String?
    @Option(name: .customLong("api-key"), help: "The tenant's API key at --server (prv_sk_…).") var apiKey: String?
    @Option(name: .long, help: "A running `provisio sandbox serve` wired to --server (default http://127.0.0.1:8090).")
    var sandbox: String?
    @Option(name: .customLong("sandbox-key"), help: "The sandbox's API key (or PROVISIO_SANDBOX_API_KEY).")
    var sandboxKey: String?
    @Option(
        name: .long,
        help: """
            The card network's dialect: provisio (Provisio's network API) or mdes (Mastercard MDES over mutual TLS, \
            Provisio's MDES listener and the sandbox's Customer Service API; embedded only).
            """)
    var network: NetworkDialectOption = .provisio

    /// Like every command: bad arguments are exit status 2 and one `error: <code>: <message>` line.
    func checkArguments() throws {
        if let scenario, DemoScenarios.titles[scenario] == nil {
            throw ProvisioError(.invalidArgument, "--scenario must be between 1 and \(DemoScenarios.titles.count).")
        }
        if server != nil, apiKey == nil {
            throw ProvisioError(.invalidArgument, "--server needs --api-key (the tenant's prv_sk_… key).")
        }
        if server == nil, apiKey != nil || sandbox != nil || sandboxKey != nil {
            throw ProvisioError(.invalidArgument, "--api-key, --sandbox and --sandbox-key go with --server.")
        }
        if server != nil, network == .mdes {
            throw ProvisioError(
                .invalidArgument, "--network mdes runs the embedded demo only (it makes the certificates and keys itself).")
        }
    }

    func run() async throws {
        try await runReportingErrorsAsync { try await play() }
    }

    private func play() async throws {
        try checkArguments()
        let transcript = DemoTranscript()
        let started = ContinuousClock.now
        let world: DemoWorld
        if let server, let apiKey {
            guard let key = sandboxKey ?? ProcessInfo.processInfo.environment["PROVISIO_SANDBOX_API_KEY"] else {
                throw ProvisioError(
                    .invalidArgument,
                    "--server needs --sandbox-key (or PROVISIO_SANDBOX_API_KEY): the key of the running sandbox.")
            }
            let sandboxURL = sandbox ?? "http://127.0.0.1:8090"
            transcript.emit("Provisio demo — Provisio at \(server), sandbox at \(sandboxURL)")
            do {
                world = try await DemoWorld.connectRemote(
                    server: server, apiKey: apiKey, sandboxURL: sandboxURL, sandboxKey: key)
            } catch let error as ProvisioError {
                throw error
            } catch {
                throw ProvisioError(.demoServerUnreachable, "Provisio at \(server) could not be reached (\(type(of: error))).")
            }
        } else {
            transcript.emit(
                "Provisio demo — embedded server, webhook receiver, sandbox Apple Wallet, Apple service and card network"
                    + (network == .mdes ? " speaking Mastercard MDES" : ""))
            world = try await DemoWorld.startEmbedded(transcript: transcript, network: network)
        }
        let scenarios = DemoScenarios(world: world, transcript: transcript)
        try await scenarios.registerWebhooks()
        var numbers = DemoScenarios.titles.keys.sorted()
        if let scenario {
            numbers = DemoScenarios.prerequisites[scenario, default: []] + [scenario]
        }
        for number in numbers {
            if let pending = DemoScenarios.pending[number] {
                transcript.emit("\n[\(number)] – not yet: \(pending)")
                continue
            }
            await transcript.heading(number, DemoScenarios.titles[number] ?? "")
            do {
                try await scenarios.run(number)
            } catch {
                await transcript.fail("scenario \(number) stopped: \(error)")
            }
        }
        if keepRunning, server == nil {
            transcript.emit("\nEverything stays up (Ctrl-C ends): the console, Provisio and the sandbox as printed above.")
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        }
        await world.shutdown()
        let passed = await transcript.passed
        let failed = await transcript.failed
        let elapsed = ContinuousClock.now - started
        transcript.emit(
            "\nSummary: \(passed) ✓, \(failed) ✗ in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))"
                + (numbers.contains(where: { DemoScenarios.pending[$0] != nil }) ? "; some scenarios are not built yet" : ""))
        if failed > 0 { throw ExitCode(1) }
    }
}
