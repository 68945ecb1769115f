import Foundation
import ProvisioCore

/// A clock tests move by hand (session deadlines).
final class TestClock: TimeSource, Sendable {
    private let current: Locked<Date>

    init(_ start: Date) { self.current = Locked(start) }

    func now() -> Date {
        current.value
    }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
