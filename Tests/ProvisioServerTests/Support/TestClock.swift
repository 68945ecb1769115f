import Foundation
import ProvisioCore

/// A clock tests move by hand (token expiry, TAV windows). A frozen clock stands still until
/// advanced; a live one follows real time plus whatever the test added (for work that waits,
/// such as webhook retries).
///
/// `@unchecked Sendable`: `offset` is only read and written while holding `lock`.
final class TestClock: TimeSource, @unchecked Sendable {
    private let lock = NSLock()
    private let frozenAt: Date?
    private var offset: TimeInterval = 0

    init(_ start: Date = Date()) { self.frozenAt = start }
    private init(live: Void) { self.frozenAt = nil }

    static func live() -> TestClock { TestClock(live: ()) }

    func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return (frozenAt ?? Date()).addingTimeInterval(offset)
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        defer { lock.unlock() }
        offset += seconds
    }
}
