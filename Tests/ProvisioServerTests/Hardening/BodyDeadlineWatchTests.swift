import ProvisioCore
import ProvisioHTTP
import Testing

/// The shared ticker behind the body-read timeout: a passed deadline runs its callback within
/// about a tick, a cancelled one never, and with nothing registered no task keeps waking.
@Suite struct BodyDeadlineWatchTests {
    @Test func aPassedDeadlineRunsItsCallbackOnceAndOnlyThen() async throws {
        let watch = BodyDeadlineWatch(tick: .milliseconds(10))
        let firings = Locked<[ContinuousClock.Instant]>([])
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(200))
        _ = watch.register(deadline: deadline) { firings.withLock { $0.append(.now) } }
        try await Self.wait(until: { !firings.value.isEmpty }, limit: .seconds(60))
        try await Self.wait(until: { !watch.isTicking }, limit: .seconds(60))
        // Once, and not before its deadline (how late depends on the machine's load).
        #expect(firings.value.count == 1)
        #expect(firings.value.allSatisfy { $0 >= deadline })
        #expect(watch.pendingCount == 0)
    }

    @Test func aCancelledDeadlineNeverRuns() async throws {
        let watch = BodyDeadlineWatch(tick: .milliseconds(10))
        let fired = Locked(false)
        let registration = watch.register(deadline: .now.advanced(by: .seconds(1))) { fired.withLock { $0 = true } }
        watch.cancel(registration)
        try await Task.sleep(for: .milliseconds(1300))
        #expect(!fired.value)
        #expect(watch.pendingCount == 0)
    }

    @Test func theTickerStopsWhenIdleAndStartsAgainForTheNextDeadline() async throws {
        let watch = BodyDeadlineWatch(tick: .milliseconds(10))
        let early = watch.register(deadline: .now.advanced(by: .seconds(60))) {}
        #expect(watch.isTicking)
        watch.cancel(early)
        try await Self.wait(until: { !watch.isTicking }, limit: .seconds(60))
        let fired = Locked(false)
        _ = watch.register(deadline: .now.advanced(by: .milliseconds(20))) { fired.withLock { $0 = true } }
        try await Self.wait(until: { fired.value }, limit: .seconds(60))
    }

    @Test func manyConcurrentDeadlinesEachRunOnce() async throws {
        let watch = BodyDeadlineWatch(tick: .milliseconds(5))
        let counts = Locked([Int](repeating: 0, count: 200))
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    // Every other one is cancelled well before its deadline: it must never run.
                    let cancelled = index % 2 == 1
                    let wait: Duration = cancelled ? .seconds(1) : .milliseconds(Int64(index % 20))
                    let registration = watch.register(deadline: .now.advanced(by: wait)) {
                        counts.withLock { $0[index] += 1 }
                    }
                    if cancelled { watch.cancel(registration) }
                }
            }
        }
        try await Self.wait(until: { watch.pendingCount == 0 && !watch.isTicking }, limit: .seconds(60))
        try await Task.sleep(for: .milliseconds(50))
        let final = counts.value
        for index in 0..<200 {
            #expect(final[index] == (index % 2 == 0 ? 1 : 0), "deadline \(index)")
        }
    }

    static func wait(until condition: @Sendable () -> Bool, limit: Duration) async throws {
        let end = ContinuousClock.now.advanced(by: limit)
        while !condition() {
            guard ContinuousClock.now < end else {
                Issue.record("The condition did not hold within \(limit).")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
