import Foundation
import ProvisioCore

#if canImport(Glibc)
    import Glibc
#endif

/// A few threads of its own for bcrypt, behind a bounded queue. bcrypt at cost 12 is a quarter
/// of a second of CPU by design; on a shared pool (NIO's, which also runs SQLite and DNS) a
/// sign-in flood queues ahead of every database write. Here a flood only fills this queue, and
/// what does not fit is refused at once (`sign_in_busy`) instead of waiting. A job that still
/// waited longer than `maximumWait` when its turn came is refused then, unhashed: on a machine
/// slower than planned (or a loaded one) a full queue would otherwise keep a sign-in waiting for
/// eight hashes of unbounded length.
///
/// Threads start with the first job and stop when the executor goes (the server's services are
/// released), after finishing what was queued; a server that never signs anyone in runs none.
public final class PasswordHashingExecutor: Sendable {
    /// Threads hashing at once, and jobs running or waiting at most.
    public let threads: Int
    public let capacity: Int
    /// The longest a job waits in the queue before it is refused instead of run.
    public let maximumWait: Duration
    let core: Core

    /// One thread on a small machine (two cores leave one for requests), two on a larger one;
    /// eight jobs each: two seconds of work at cost 12, the longest a sign-in should wait.
    public static var standardThreads: Int { ProcessInfo.processInfo.activeProcessorCount >= 8 ? 2 : 1 }

    /// Five seconds: more than the planned two, for a loaded machine, and far below a client's
    /// patience.
    public static let standardMaximumWait = Duration.seconds(5)

    public init(threads: Int = standardThreads, capacity: Int? = nil, maximumWait: Duration = standardMaximumWait) {
        self.threads = max(1, threads)
        self.capacity = max(1, capacity ?? 8 * max(1, threads))
        self.maximumWait = maximumWait
        self.core = Core()
    }

    deinit {
        core.stop()
    }

    /// Runs `work` on one of the executor's threads; `sign_in_busy` at once when the queue is full,
    /// or when its turn comes after more than `maximumWait`.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        let deadline = ContinuousClock.now.advanced(by: maximumWait)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let accepted = core.submit(threads: threads, capacity: capacity) {
                guard ContinuousClock.now <= deadline else { return continuation.resume(throwing: Self.busy()) }
                continuation.resume(returning: work())
            }
            if !accepted { continuation.resume(throwing: Self.busy()) }
        }
    }

    /// Jobs accepted and not yet finished.
    public var pending: Int { core.pending }

    static func busy() -> ProvisioError {
        ProvisioError(.signInBusy, "Sign-in is busy; try again in a moment.")
    }

    /// The queue and its threads. The threads hold this, not the executor, so the executor's
    /// `deinit` runs when the server lets go of it, and tells them to stop.
    final class Core: Sendable {
        struct State {
            var jobs: [@Sendable () -> Void] = []
            var head = 0
            var pending = 0
            var started = 0
            var exited = 0
            var stopping = false
            /// The threads this executor started, as Foundation's `Thread` objects.
            var threads: Set<ObjectIdentifier> = []
        }

        private let state = Locked(State())
        /// Counts queued jobs (and stop signals): a thread waits on it, then takes one job.
        private let available = DispatchSemaphore(value: 0)

        var pending: Int { state.value.pending }
        /// Threads started and not yet ended.
        var liveThreads: Int { state.withLock { $0.started - $0.exited } }
        /// The threads it started (a job's `Thread.current` is one of them).
        var threadIdentities: Set<ObjectIdentifier> { state.value.threads }

        /// Queues `job` unless `capacity` jobs are pending; starts a thread if fewer than
        /// `threads` run.
        func submit(threads: Int, capacity: Int, _ job: @escaping @Sendable () -> Void) -> Bool {
            let startThread: Bool? = state.withLock { state in
                guard !state.stopping, state.pending < capacity else { return nil }
                state.pending += 1
                state.jobs.append(job)
                guard state.started < threads else { return false }
                state.started += 1
                return true
            }
            guard let startThread else { return false }
            if startThread {
                let thread = Thread { [self] in work() }
                // Foundation names the thread as it starts; named again from inside below.
                thread.name = "provisio-bcrypt"
                thread.start()
            }
            available.signal()
            return true
        }

        func stop() {
            let threads = state.withLock { state in
                state.stopping = true
                return state.started
            }
            for _ in 0..<threads { available.signal() }
        }

        private func work() {
            // Named from inside: on Linux a thread otherwise keeps the name of the one that made it.
            Thread.current.name = "provisio-bcrypt"
            let identity = ObjectIdentifier(Thread.current)
            state.withLock { _ = $0.threads.insert(identity) }
            #if canImport(Glibc)
                // Linux: the nice value is per thread, so hashing yields the CPU to requests
                // (a flood then slows sign-ins, not the API). Without it nothing else changes.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            #endif
            while true {
                available.wait()
                let job: (@Sendable () -> Void)? = state.withLock { state in
                    guard state.head < state.jobs.count else { return nil }
                    let job = state.jobs[state.head]
                    state.head += 1
                    // Drop the consumed prefix now and then, so the array does not grow forever.
                    if state.head > 64, state.head * 2 > state.jobs.count {
                        state.jobs.removeFirst(state.head)
                        state.head = 0
                    }
                    return job
                }
                // No job for a signal: the stop signal, and the queue is drained.
                guard let job else {
                    state.withLock { $0.exited += 1 }
                    return
                }
                job()
                state.withLock { $0.pending -= 1 }
            }
        }
    }
}
