import Foundation
import ProvisioCore

/// The sign-in limits of one server: an attempt passes only if both its client address and its
/// account are under their limits, and is then counted against both, in one step (parallel
/// attempts cannot all pass a check before any is counted). Refused attempts are not counted.
final class SignInThrottle: Sendable {
    /// An admitted attempt, to give back when it succeeds or never ran.
    struct Ticket: Sendable {
        let address: String
        let account: String
        let time: Date
    }

    struct Counters: Sendable {
        var addresses: SlidingWindowCounter
        var accounts: SlidingWindowCounter
    }

    let limits: SignInLimits
    private let counters: Locked<Counters>

    init(limits: SignInLimits) {
        self.limits = limits
        self.counters = Locked(
            Counters(
                addresses: SlidingWindowCounter(
                    limit: limits.perAddress, window: limits.window, maximumKeys: limits.maximumKeys),
                accounts: SlidingWindowCounter(
                    limit: limits.perAccount, window: limits.window, maximumKeys: limits.maximumKeys)))
    }

    /// Counts the attempt and returns its ticket, or nil when either limit is reached.
    func admit(address: String, account: String, at now: Date) -> Ticket? {
        counters.withLock { counters in
            guard counters.addresses.allows(address, at: now), counters.accounts.allows(account, at: now) else {
                return nil
            }
            counters.addresses.record(address, at: now)
            counters.accounts.record(account, at: now)
            return Ticket(address: address, account: account, time: now)
        }
    }

    /// Gives an attempt back: it signed in, or was never tried (the hashing executor was full).
    func giveBack(_ ticket: Ticket) {
        counters.withLock { counters in
            counters.addresses.forget(ticket.address, at: ticket.time)
            counters.accounts.forget(ticket.account, at: ticket.time)
        }
    }
}
