import Foundation
import Logging
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stops a server whose parent is gone. A supervisor (the benchmarks, the tests, an issuer's own
/// tooling) that wants its servers to end with it sets `PROVISIO_PARENT_PID` to its own pid; once
/// this process is no longer that pid's child (the parent crashed or was killed, and the orphan
/// was handed to init), it shuts down gracefully instead of running on unowned.
struct ParentWatchService: Service {
    static let variable = "PROVISIO_PARENT_PID"

    let parent: pid_t
    let logger: Logger
    var interval: Duration = .milliseconds(500)

    /// The watch the environment asks for, or nil.
    static func fromEnvironment(logger: Logger) -> ParentWatchService? {
        guard let text = ProcessInfo.processInfo.environment[variable], let parent = pid_t(text), parent > 1 else {
            return nil
        }
        return ParentWatchService(parent: parent, logger: logger)
    }

    /// Returns (which shuts the group down) once the parent is gone; waits out a graceful
    /// shutdown otherwise.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if getppid() != parent {
                    logger.warning(
                        "the parent process is gone; shutting down", metadata: ["parent_pid": "\(parent)"])
                    return
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// The watch as a service group's member, if the environment asks for one: its return
    /// shuts the whole group down.
    static func groupMembers(logger: Logger) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        guard let watch = fromEnvironment(logger: logger) else { return [] }
        return [.init(service: watch, successTerminationBehavior: .gracefullyShutdownGroup)]
    }
}
