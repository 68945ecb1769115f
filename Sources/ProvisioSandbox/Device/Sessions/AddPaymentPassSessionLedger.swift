import Foundation
import ProvisioCore

/// The wallet's record of add-card sessions: each may be answered once, before it expires.
///
/// A value type owned by `SandboxWallet` (an actor), so `claim` runs atomically: of two
/// concurrent submissions for one session exactly one gets it, the other is a replay.
struct AddPaymentPassSessionLedger: Sendable {
    /// How long a used or expired session is remembered, so that a late replay is reported as a
    /// replay (or expiry) rather than as an unknown session. After that it is unknown — still refused.
    static let retention: TimeInterval = 10 * 60

    private struct Entry: Sendable {
        var session: AddPaymentPassSession
        var claimed: Bool
    }

    private var entries: [String: Entry] = [:]

    mutating func open(_ session: AddPaymentPassSession) {
        entries[session.id] = Entry(session: session, claimed: false)
    }

    func session(id: String) -> AddPaymentPassSession? {
        entries[id]?.session
    }

    /// Takes the session for its one answer. Every attempt uses it up, whatever the payload
    /// turns out to hold: PassKit's completion handler runs once per session.
    mutating func claim(id: String, at time: Date) throws -> AddPaymentPassSession {
        guard var entry = entries[id] else {
            throw ProvisioError(.sandboxSessionUnknown, "No add-card session has this id.")
        }
        guard !entry.claimed else {
            throw ProvisioError(.sandboxSessionReplayed, "This add-card session was already answered; a session is single-use.")
        }
        entry.claimed = true
        entries[id] = entry
        guard !entry.session.isExpired(at: time) else {
            throw ProvisioError(
                .sandboxSessionExpired,
                "The add-card session expired \(Int(AddPaymentPassSession.lifetime)) seconds after it began.")
        }
        return entry.session
    }

    /// Forgets sessions whose deadline is more than `retention` before `time`.
    mutating func prune(at time: Date) {
        let cutoff = time.addingTimeInterval(-Self.retention)
        entries = entries.filter { $0.value.session.expiresAt >= cutoff }
    }
}
