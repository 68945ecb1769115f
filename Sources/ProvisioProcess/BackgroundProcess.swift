import Foundation
import ProvisioCore
import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program that runs alongside this one (a `provisio serve` under test or under benchmark),
/// its standard output and error appended to a log file.
///
/// `stop()` sends SIGTERM and waits for the exit, SIGKILL after a grace period; `kill()` sends
/// SIGKILL at once. Whoever forgets to stop it does not leave it behind: when the last reference
/// goes, a child still running is killed; and if this process itself dies first, a Provisio
/// server child stops on its own (it is told this process's pid in `PROVISIO_PARENT_PID`).
public final class BackgroundProcess: Sendable {
    /// The child's process id.
    public let pid: pid_t
    /// Where its standard output and standard error go.
    public let logFile: String

    /// How the child ended, once it has. Set right after the run reaps the child, so while it is
    /// nil the pid is the child's (at worst a zombie) but for the instant between the two.
    private let ended: Locked<ProcessTermination?>
    private let outcome: Task<ProcessTermination, any Error>

    private init(pid: pid_t, logFile: String, ended: Locked<ProcessTermination?>, outcome: Task<ProcessTermination, any Error>) {
        self.pid = pid
        self.logFile = logFile
        self.ended = ended
        self.outcome = outcome
    }

    deinit {
        _ = signal(SIGKILL)
    }

    /// Starts `executable` and returns once the child exists (not once it is ready: callers wait
    /// for what it announces in `logFile`). `environment` adds to (or, with a nil value, removes
    /// from) this process's environment.
    public static func start(
        _ executable: String, arguments: [String], environment: [String: String?] = [:],
        workingDirectory: String? = nil, logFile: String
    ) async throws -> BackgroundProcess {
        let log = try FileDescriptor.open(
            FilePath(logFile), .writeOnly, options: [.create, .truncate, .append],
            permissions: [.ownerReadWrite, .groupRead])
        let ended = Locked<ProcessTermination?>(nil)
        let (announcement, announce) = AsyncThrowingStream<pid_t, any Error>.makeStream()
        let outcome = Task<ProcessTermination, any Error> {
            do {
                // The body only announces the pid: the run then waits for the child to exit and
                // reaps it, whoever ends it (a signal from `stop`/`kill`, or the child itself).
                // A Provisio server stops on its own if this process dies without stopping it.
                let parent: [String: String?] = ["PROVISIO_PARENT_PID": String(getpid())]
                let watched = parent.merging(environment) { $1 }
                let result = try await Subprocess.run(
                    .path(FilePath(executable)), arguments: Arguments(arguments),
                    environment: ChildProcess.environment(watched),
                    workingDirectory: workingDirectory.map { FilePath($0) }, input: .none,
                    output: .fileDescriptor(log, closeAfterSpawningProcess: true), error: .combinedWithOutput
                ) { execution in
                    announce.yield(execution.processIdentifier.value)
                    announce.finish()
                }
                let termination = ProcessTermination(result.terminationStatus)
                ended.withLock { $0 = termination }
                return termination
            } catch {
                announce.finish(throwing: error)
                throw error
            }
        }
        var started = announcement.makeAsyncIterator()
        guard let pid = try await started.next() else {
            throw ChildProcessError("\(executable) did not start.")
        }
        return BackgroundProcess(pid: pid, logFile: logFile, ended: ended, outcome: outcome)
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { ended.value == nil }

    /// How it ended, or nil while it runs.
    public var termination: ProcessTermination? { ended.value }

    /// Sends SIGTERM, waits up to `grace` for the exit, then SIGKILL; returns how it ended.
    @discardableResult
    public func stop(grace: Duration = .seconds(20)) async -> ProcessTermination {
        _ = signal(SIGTERM)
        let escalation = Task { [weak self] in
            try await Task.sleep(for: grace)
            _ = self?.signal(SIGKILL)
        }
        defer { escalation.cancel() }
        return await waitForExit()
    }

    /// Sends SIGKILL and waits for the exit.
    @discardableResult
    public func kill() async -> ProcessTermination {
        _ = signal(SIGKILL)
        return await waitForExit()
    }

    /// Waits until the child exits on its own.
    public func waitForExit() async -> ProcessTermination {
        do {
            return try await outcome.value
        } catch {
            // The run failed after the child started (the monitor could not watch it): report
            // it as killed, the one outcome a caller cannot mistake for success.
            return .signaled(SIGKILL)
        }
    }

    /// Sends `signal` unless the child has already exited (then its pid may belong to another).
    /// Returns whether it was sent.
    public func signal(_ signal: Int32) -> Bool {
        ended.withLock { ended in
            guard ended == nil else { return false }
            #if canImport(Glibc)
                return Glibc.kill(pid, signal) == 0
            #else
                return Darwin.kill(pid, signal) == 0
            #endif
        }
    }
}
