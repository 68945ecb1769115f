import Foundation
import Hummingbird
import Logging
import ProvisioCore
import ProvisioHTTP
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
        // In a slot of its own when no test database holds one (a sandbox-only test).
        try await ServerTestSlots.run {
            try await RunningApplication.with(logger: logger) { onListening in
                SandboxHTTPService.make(
                    world: world, host: "127.0.0.1", port: 0, apiKey: apiKey, oauthVerifier: oauthVerifier,
                    mastercardKey: mastercardKey, logger: logger, onListening: onListening)
            } _: { running in
                try await body("http://127.0.0.1:\(running.port)")
            }
        }
    }
}
