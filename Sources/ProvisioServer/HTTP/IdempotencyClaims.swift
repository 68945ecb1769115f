import ProvisioCore

/// The `Idempotency-Key` claims that attempts in this process hold, so that a duplicate request
/// finding its key in progress waits for the attempt holding it to end, and is woken when it does,
/// instead of reading the database again and again.
///
/// A claim is named by its lease token, which only its attempt knows and which the database
/// shows on the key while it is in progress. An attempt registers its token here before it first
/// claims the key, so a token the database shows is either registered here (held in this process:
/// wait for it) or not (held by another process on the same database, or left by a crashed one:
/// poll). Waiters are woken when the attempt ends, however it ends: its answer stored, its claim
/// released after a 5xx, or the attempt thrown out or cancelled.
final class IdempotencyClaims: Sendable {
    /// One attempt's claim on one key.
    struct Claim: Hashable, Sendable {
        var scope: String
        var key: String
        var token: String
    }

    /// Why `wait` returned.
    enum Wake: Equatable, Sendable {
        /// The attempt ended in this process (now or a moment ago): read the key again.
        case ended
        /// No attempt in this process holds the claim: another process does (or did).
        case heldElsewhere
        /// The deadline passed first.
        case deadline
    }

    /// A waiting request: announced under the lock before it suspends, so neither an end nor a
    /// cancellation arriving in between is lost.
    private enum Waiter {
        case announced
        case suspended(CheckedContinuation<Void, Never>)
        case cancelled
    }

    private struct State {
        /// The attempts under way, each with the requests waiting for it.
        var running: [Claim: [Int: Waiter]] = [:]
        /// Claims that ended lately, so a duplicate that read the key just before its attempt ended
        /// still counts it as this process's and reads again at once (bounded; oldest first).
        var ended: Set<Claim> = []
        var endedOrder: [Claim] = []
        var nextWaiter = 0
    }

    private let state = Locked(State())
    private let rememberedEndings: Int

    init(rememberedEndings: Int = 1024) {
        self.rememberedEndings = max(1, rememberedEndings)
    }

    /// Registers an attempt's claim; call it before the attempt first claims the key in the store.
    func begin(_ claim: Claim) {
        state.withLock { state in
            if state.running[claim] == nil { state.running[claim] = [:] }
        }
    }

    /// Ends an attempt, whether or not it got the key, and wakes every request waiting for it. Call
    /// it after the store has the outcome (answer stored, or claim released).
    func end(_ claim: Claim) {
        let waiters: [Int: Waiter] = state.withLock { state in
            guard let waiters = state.running.removeValue(forKey: claim) else { return [:] }
            if state.ended.insert(claim).inserted {
                state.endedOrder.append(claim)
                if state.endedOrder.count > rememberedEndings { state.ended.remove(state.endedOrder.removeFirst()) }
            }
            return waiters
        }
        for case .suspended(let continuation) in waiters.values { continuation.resume() }
    }

    /// Waits until the attempt holding `claim` ends in this process, or `deadline` passes; returns
    /// at once when no attempt here holds it. Throws `CancellationError` if the waiting task is
    /// cancelled.
    func wait(for claim: Claim, until deadline: ContinuousClock.Instant) async throws -> Wake {
        let id: Int? = state.withLock { state in
            guard state.running[claim] != nil else { return nil }
            let id = state.nextWaiter
            state.nextWaiter += 1
            state.running[claim]?[id] = .announced
            return id
        }
        guard let id else {
            return state.withLock { $0.ended.contains(claim) } ? .ended : .heldElsewhere
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.suspend(id, until: claim) }
            group.addTask { try? await Task.sleep(until: deadline) }
            await group.next()
            group.cancelAll()
        }
        let ended = state.withLock { state in
            state.running[claim]?[id] = nil
            return state.running[claim] == nil
        }
        try Task.checkCancellation()
        return ended ? .ended : .deadline
    }

    /// Suspends until `claim` ends or the task is cancelled.
    private func suspend(_ id: Int, until claim: Claim) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    guard case .announced = state.running[claim]?[id] else {
                        // Ended (its waiters are gone) or cancelled before suspending.
                        state.running[claim]?[id] = nil
                        return true
                    }
                    state.running[claim]?[id] = .suspended(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
                switch state.running[claim]?[id] {
                case .announced:
                    state.running[claim]?[id] = .cancelled
                    return nil
                case .suspended(let continuation):
                    state.running[claim]?[id] = nil
                    return continuation
                case .cancelled, nil:
                    return nil
                }
            }
            continuation?.resume()
        }
    }

    /// How many requests are waiting for `claim` (for tests).
    func waiterCount(for claim: Claim) -> Int {
        state.withLock { $0.running[claim]?.count ?? 0 }
    }
}
