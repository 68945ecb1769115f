#if os(Linux)
    import Foundation
    import ProvisioCore
    import Testing

    /// A clock that moves only when the test says so: Wallet's limits (100 ms, 20 s) pass in an
    /// instant, and what fires first is decided by the test, not by the machine's load.
    final class ManualClock: Clock, Sendable {
        struct Instant: InstantProtocol {
            var offset: Duration
            func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
            func duration(to other: Instant) -> Duration { other.offset - offset }
            static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        }

        private struct Sleeper {
            let deadline: Instant
            let continuation: CheckedContinuation<Void, any Error>
        }

        private struct State {
            var now = Instant(offset: .zero)
            var sleepers: [UUID: Sleeper] = [:]
        }

        private let state = Locked(State())

        var now: Instant { state.value.now }
        var minimumResolution: Duration { .zero }

        /// How many sleeps are waiting.
        var sleeperCount: Int { state.value.sleepers.count }

        func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            let id = UUID()
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let resume: Bool = state.withLock { state in
                        guard deadline > state.now, !Task.isCancelled else { return true }
                        state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                        return false
                    }
                    if resume { continuation.resume() }
                }
                try Task.checkCancellation()
            } onCancel: {
                let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
                sleeper?.continuation.resume(throwing: CancellationError())
            }
        }

        /// Moves time on and wakes every sleep due by then.
        func advance(by duration: Duration) {
            let due: [Sleeper] = state.withLock { state in
                state.now = state.now.advanced(by: duration)
                let now = state.now
                let due = state.sleepers.filter { $0.value.deadline <= now }
                for id in due.keys { state.sleepers.removeValue(forKey: id) }
                return Array(due.values)
            }
            for sleeper in due { sleeper.continuation.resume() }
        }

        /// Waits (polling, without a time limit of its own that matters) until `count` sleeps are
        /// waiting, so that `advance` finds them.
        func waitForSleepers(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
            for _ in 0..<10_000 where sleeperCount < count {
                try? await Task.sleep(for: .milliseconds(2))
            }
            #expect(sleeperCount >= count, "only \(sleeperCount) sleeps waiting", sourceLocation: sourceLocation)
        }
    }
#endif
