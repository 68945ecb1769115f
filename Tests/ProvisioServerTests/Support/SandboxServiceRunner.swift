import Foundation
import Hummingbird
import Logging
import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxServer

/// Runs the sandbox's HTTP service (`provisio sandbox serve`) on a free loopback port for the
/// length of `body`, then stops it; with `oauthVerifier`, its MDES Customer Service API too
/// (`--network mdes`), whose token update opens what is encrypted for `mastercardKey`.
enum SandboxServiceRunner {
    static func run<T: Sendable>(
        world: SandboxHTTPWorld, apiKey: String, oauthVerifier: SandboxOAuthVerifier? = nil,
        mastercardKey: SandboxMastercardEncryptionKey? = nil, logger: Logger,
        _ body: @Sendable (_ url: String) async throws -> T
    ) async throws -> T {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = SandboxHTTPService.make(
            world: world, host: "127.0.0.1", port: 0, apiKey: apiKey, oauthVerifier: oauthVerifier,
            mastercardKey: mastercardKey, logger: logger,
            onListening: { continuation.yield($0) })
        let running = Task {
            defer { continuation.finish() }
            try await app.runService(gracefulShutdownSignals: [])
        }
        var bound: Int?
        for await port in ports {
            bound = port
            break
        }
        guard let port = bound, port > 0 else {
            running.cancel()
            throw TestSetupError("the sandbox service did not start: \(String(describing: await running.result))")
        }
        defer { running.cancel() }
        let value = try await body("http://127.0.0.1:\(port)")
        running.cancel()
        _ = await running.result
        return value
    }
}
