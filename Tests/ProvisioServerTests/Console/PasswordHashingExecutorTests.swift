import Dispatch
import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

/// bcrypt's own executor: its threads (not NIO's pool, which runs the database), a queue that
/// refuses at once when full, and threads that end when the executor goes.
@Suite struct PasswordHashingExecutorTests {
    /// Waits (briefly, polling) until `condition` holds; false if it never does.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func aFullQueueIsRefusedAtOnce() async throws {
        let executor = PasswordHashingExecutor(threads: 1, capacity: 2)
        let gate = DispatchSemaphore(value: 0)
        let first = Task { try await executor.run { gate.wait() } }
        #expect(try await Self.eventually { executor.pending == 1 })
        let second = Task { try await executor.run { 2 } }
        #expect(try await Self.eventually { executor.pending == 2 })
        // The thread is held and one job waits: the third is refused without waiting.
        let refused = await #expect(throws: ProvisioError.self) { try await executor.run { 3 } }
        #expect(refused?.code == .signInBusy && refused?.code.status == .tooManyRequests)
        gate.signal()
        try await first.value
        #expect(try await second.value == 2)
        #expect(try await executor.run { 4 } == 4)
        // The worker counts a job done just after it resumes its caller: wait for that.
        #expect(try await Self.eventually { executor.pending == 0 })
    }

    /// A job holding the executor's one thread until `gate` is signalled. With a short bound on
    /// the wait, a loaded machine may start the thread too late and refuse the job unrun: then
    /// it is submitted again, until one runs.
    static func occupy(_ executor: PasswordHashingExecutor, until gate: DispatchSemaphore) async throws
        -> Task<Void, any Error>
    {
        for _ in 0..<20 {
            let started = Locked(false)
            let refused = Locked(false)
            let job = Task {
                do {
                    try await executor.run {
                        started.withLock { $0 = true }
                        gate.wait()
                    }
                } catch {
                    refused.withLock { $0 = true }
                    throw error
                }
            }
            _ = try await eventually { started.value || refused.value }
            if started.value { return job }
        }
        throw ProvisioError(.internalError, "The executor refused 20 jobs in a row before running one.")
    }

    @Test func aJobThatWaitedTooLongIsRefusedUnrun() async throws {
        let executor = PasswordHashingExecutor(threads: 1, capacity: 4, maximumWait: .milliseconds(50))
        let gate = DispatchSemaphore(value: 0)
        let first = try await Self.occupy(executor, until: gate)
        #expect(try await Self.eventually { executor.pending == 1 })
        let ran = Locked(false)
        let late = Task { try await executor.run { ran.withLock { $0 = true } } }
        #expect(try await Self.eventually { executor.pending == 2 })
        // The second job's turn comes after at least 200 ms, four times its bound.
        try await Task.sleep(for: .milliseconds(200))
        gate.signal()
        try await first.value
        let refused = await #expect(throws: ProvisioError.self) { try await late.value }
        #expect(refused?.code == .signInBusy)
        #expect(!ran.value)
        // The worker counts a job done just after it resumes its caller: wait for that.
        #expect(try await Self.eventually { executor.pending == 0 })
        // (That a job given its turn in time runs is the other tests' business: with a 50 ms
        // bound, a loaded machine's scheduler alone could exceed it.)
    }

    @Test func hashingRunsOnItsOwnThreads() async throws {
        let executor = PasswordHashingExecutor(threads: 2)
        // By identity, not by name: a Linux thread's name is cosmetic and was once read as the
        // name of the dispatch thread that started it.
        let ran = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<8 { group.addTask { try await executor.run { ObjectIdentifier(Thread.current) } } }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        let own = executor.core.threadIdentities
        #expect(!ran.isEmpty && ran.isSubset(of: own), "a job ran on a thread the executor did not start")
        #expect(own.count <= 2)
        let hasher = BcryptPasswordHasher(cost: 4, executor: executor)
        let hash = try await hasher.hash("correct horse battery")
        #expect(try await hasher.verify("correct horse battery", hash: hash))
        #expect(try await !hasher.verify("wrong horse battery", hash: hash))
    }

    @Test func threadsEndWhenTheExecutorGoes() async throws {
        var executor: PasswordHashingExecutor? = PasswordHashingExecutor(threads: 2)
        let core = try #require(executor?.core)
        #expect(core.liveThreads == 0, "threads before any work")
        for _ in 0..<4 { _ = try await executor?.run { 1 } }
        #expect(core.liveThreads > 0)
        executor = nil
        #expect(try await Self.eventually { core.liveThreads == 0 }, "a hashing thread outlived its executor")
    }
}
