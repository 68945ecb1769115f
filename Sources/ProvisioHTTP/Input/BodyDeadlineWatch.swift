import ProvisioCore

/// Runs a callback once a deadline has passed, for every request body being read at once, on one
/// shared ticker instead of a timer per request.
///
/// A timer per request (a sleeping task raced against the read) cost the Apple Pay endpoint
/// about a tenth of its CPU: a task group, a second task and a dispatch timer armed and
/// cancelled on every POST. Here a request registers its deadline (a lock and a dictionary
/// insert), and a single task wakes every `tick` while any deadline is registered, running the
/// callbacks of those that have passed. A deadline is therefore noticed up to one tick late,
/// which is nothing next to a body-read timeout of seconds. With nothing registered the ticker
/// ends, so an idle server does not wake.
public final class BodyDeadlineWatch: Sendable {
    /// A registration, to cancel once the body has arrived.
    public struct Registration: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var ticking = false
    }

    /// The process's watch, shared by every server in it.
    public static let shared = BodyDeadlineWatch(tick: .milliseconds(50))

    /// How often registered deadlines are checked: the most a deadline is noticed late.
    public let tick: Duration
    private let state = Locked(State())

    public init(tick: Duration) {
        self.tick = tick
    }

    /// Calls `expire` once `deadline` has passed, unless `cancel` comes first. `expire` runs on
    /// the ticker's task and must not block.
    public func register(
        deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void
    ) -> Registration {
        let (id, startTicker) = state.withLock { state -> (UInt64, Bool) in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, expire: expire)
            let start = !state.ticking
            state.ticking = true
            return (state.nextID, start)
        }
        if startTicker {
            Task.detached { [self] in await runTicker() }
        }
        return Registration(id: id)
    }

    /// Forgets a registration; its callback will not run (unless it is running already).
    public func cancel(_ registration: Registration) {
        state.withLock { _ = $0.entries.removeValue(forKey: registration.id) }
    }

    /// How many deadlines are registered (for tests).
    public var pendingCount: Int { state.withLock { $0.entries.count } }

    /// Whether the ticker task is running (for tests: it ends when nothing is registered).
    public var isTicking: Bool { state.withLock { $0.ticking } }

    private func runTicker() async {
        var keepTicking = true
        while keepTicking {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let expired: [Entry]
            (expired, keepTicking) = state.withLock { state -> ([Entry], Bool) in
                let due = state.entries.filter { $0.value.deadline <= now }
                for id in due.keys { state.entries.removeValue(forKey: id) }
                // The ticker ends under the lock, so a registration after this starts a new one.
                state.ticking = !state.entries.isEmpty
                return (Array(due.values), state.ticking)
            }
            for entry in expired { entry.expire() }
        }
    }
}
