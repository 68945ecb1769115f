import Hummingbird
import Logging

/// A Hummingbird application of a test's own on 127.0.0.1, on a port the system picks: the
/// stand-ins for what Provisio calls out to (an issuer's webhook endpoint, MDES).
enum LoopbackApplication {
    /// Starts `router` and returns once it listens: its port and the task to cancel to stop it.
    static func start(_ router: Router<BasicRequestContext>, label: String) async -> (port: Int, task: Task<Void, any Error>) {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: label)
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.run() }
        var port = 0
        for await running in stream {
            port = running
            break
        }
        return (port, task)
    }
}
