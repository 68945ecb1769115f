import Hummingbird
import Logging
import ServiceLifecycle

/// An HTTP application running in this process on the port it was given (0: one the system
/// picks), until `stop()`: the demo's servers and the tests' stand-ins.
///
/// `stop()` shuts the application down gracefully rather than cancelling its task. Cancelling a
/// serving task can leave a connection the listener already accepted, and not yet handed to a
/// handler, without anyone to close it; NIO then traps the whole process ("Deinited
/// NIOAsyncWriter without calling finish()", swift-nio issues 2637 and 3481). A graceful shutdown
/// stops accepting, serves what was accepted and closes idle keep-alive connections.
public final class RunningApplication: Sendable {
    /// The port the application listens on.
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Starts the application `make` builds (handing it the callback its `onServerRunning`
    /// reports the bound port to) and returns once it listens.
    public static func start<App: ApplicationProtocol>(
        logger: Logger, _ make: (_ onListening: @escaping @Sendable (Int) async -> Void) -> App
    ) async throws -> RunningApplication {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = make { continuation.yield($0) }
        let group = ServiceGroup(
            configuration: .init(services: [.init(service: app)], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        for await port in ports where port > 0 {
            return RunningApplication(port: port, group: group, task: task)
        }
        // It ended without listening: with the error it failed with, or this one.
        try await task.value
        throw StoppedBeforeListening()
    }

    /// Runs the application `make` builds for the length of `body`, and stops it (gracefully,
    /// within `grace`) before returning or throwing.
    public static func with<App: ApplicationProtocol, T: Sendable>(
        logger: Logger, grace: Duration = .seconds(10), _ make: (_ onListening: @escaping @Sendable (Int) async -> Void) -> App,
        _ body: (RunningApplication) async throws -> T
    ) async throws -> T {
        let running = try await start(logger: logger, make)
        do {
            let value = try await body(running)
            await running.stop(grace: grace)
            return value
        } catch {
            await running.stop(grace: grace)
            throw error
        }
    }

    /// Stops accepting connections, lets the requests under way finish and returns once the
    /// application has ended. A request still running after `grace` is cancelled.
    public func stop(grace: Duration = .seconds(10)) async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let watchdog = Task {
            try await Task.sleep(for: grace)
            task.cancel()
        }
        _ = await task.result
        watchdog.cancel()
    }

    /// The application ended, without an error, before it listened.
    public struct StoppedBeforeListening: Error, CustomStringConvertible {
        public var description: String { "The server stopped before it listened." }
    }

    /// Ends when the application does (it failed, or `stop()` was called), with its error if any.
    public func wait() async throws {
        try await task.value
    }
}
