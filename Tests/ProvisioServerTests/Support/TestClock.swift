import Foundation
import ProvisioCore

/// A clock tests move by hand (token expiry, TAV windows). A frozen clock stands still until
/// advanced; a live one follows real time plus whatever the test added (for work that waits,
/// such as webhook retries).
final class TestClock: TimeSource, Sendable {
    private let frozenAt: Date?
    private let offset = Locked<TimeInterval>(0)

    init(_ start: Date = Date()) { self.frozenAt = start }
    private init(live: Void) { self.frozenAt = nil }

    static func live() -> TestClock { TestClock(live: ()) }

    func now() -> Date {
        offset.withLock { (frozenAt ?? Date()).addingTimeInterval($0) }
    }

    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}
