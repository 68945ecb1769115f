import Foundation
import ProvisioCore

/// A clock tests move by hand (session deadlines).
///
/// `@unchecked Sendable`: `current` is only read and written while holding `lock`.
final class TestClock: TimeSource, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { self.current = start }

    func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        defer { lock.unlock() }
        current = current.addingTimeInterval(seconds)
    }
}
