import Foundation

/// Attempts per key within a sliding window: an attempt is let through while its key has had
/// fewer than `limit` in the last `window` seconds. Pure (time is passed in); the caller locks.
///
/// Memory is bounded: each key keeps at most `limit` times, and past `maximumKeys` keys the
/// expired ones are dropped; if that is not enough every new key is refused (failing closed
/// under a flood from more addresses than that, where the per-key limits no longer bite anyway).
struct SlidingWindowCounter: Sendable {
    let limit: Int
    let window: TimeInterval
    let maximumKeys: Int
    private var attempts: [String: [Date]] = [:]
    private var lastSweep = Date.distantPast

    init(limit: Int, window: TimeInterval, maximumKeys: Int) {
        self.limit = limit
        self.window = window
        self.maximumKeys = maximumKeys
    }

    var keyCount: Int { attempts.count }

    /// Whether `key` may make another attempt at `now` (nothing is recorded).
    mutating func allows(_ key: String, at now: Date) -> Bool {
        let recent = live(key, at: now)
        if recent.isEmpty, attempts.count >= maximumKeys {
            sweep(at: now)
            return attempts.count < maximumKeys
        }
        return recent.count < limit
    }

    /// Records an attempt by `key` at `now` (after `allows` said yes).
    mutating func record(_ key: String, at now: Date) {
        var recent = live(key, at: now)
        recent.append(now)
        attempts[key] = recent
    }

    /// Takes back the attempt `key` made at `time` (one that turned out not to count).
    mutating func forget(_ key: String, at time: Date) {
        guard var recent = attempts[key], let index = recent.lastIndex(of: time) else { return }
        recent.remove(at: index)
        attempts[key] = recent.isEmpty ? nil : recent
    }

    /// The key's attempts still inside the window (older ones are dropped on the way).
    private mutating func live(_ key: String, at now: Date) -> [Date] {
        guard let times = attempts[key] else { return [] }
        let recent = times.filter { now.timeIntervalSince($0) < window }
        attempts[key] = recent.isEmpty ? nil : recent
        return recent
    }

    /// Drops every key whose attempts all left the window; at most once a second, so a full
    /// table does not make every refused attempt walk it.
    private mutating func sweep(at now: Date) {
        guard now.timeIntervalSince(lastSweep) >= 1 else { return }
        lastSweep = now
        attempts = attempts.compactMapValues { times in
            let recent = times.filter { now.timeIntervalSince($0) < window }
            return recent.isEmpty ? nil : recent
        }
    }
}
