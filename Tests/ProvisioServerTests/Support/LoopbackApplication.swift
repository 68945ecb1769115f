import Hummingbird
import Logging
import ProvisioHTTP

/// A Hummingbird application of a test's own on 127.0.0.1, on a port the system picks: the
/// stand-ins for what Provisio calls out to (an issuer's webhook endpoint, MDES).
enum LoopbackApplication {
    /// Starts `router` and returns once it listens; `stop()` on the answer ends it gracefully.
    static func start(_ router: Router<BasicRequestContext>, label: String) async throws -> RunningApplication {
        var logger = Logger(label: label)
        logger.logLevel = .error
        return try await RunningApplication.start(logger: logger) { onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) }, logger: logger)
        }
    }
}
