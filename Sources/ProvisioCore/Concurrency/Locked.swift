import Foundation

/// A value behind a lock: the one primitive for state that threads and tasks share and read or
/// change synchronously (PassKit callbacks, caches, test doubles). An actor would make every
/// access `await`; `Synchronization.Mutex` would do, but it needs iOS 18 / macOS 15, and
/// ProvisioCore, ProvisioClient and ProvisioKit still support iOS 14 / macOS 14.
///
/// Read and change the value in one critical section with `withLock`; `value` is a copy:
///
///     let hits = Locked([String: Int]())
///     hits.withLock { $0[path, default: 0] += 1 }
///     let all = hits.value
///
/// Keep the critical section short and do not call out from it (a completion, a continuation,
/// another lock): take what is needed out of the lock, then act on it.
///
/// `@unchecked Sendable`, the one place in Provisio a lock needs it: every access to `protected`
/// happens inside `withLock`, between `lock()` and `unlock()` of the one NSLock, so no two
/// threads ever touch it at once; and `Value` must be Sendable, so whatever is copied out of the
/// lock may go to any thread. (`Mutex` instead accepts any value and relies on `sending`; the
/// compiler still lets `withLock { $0 }` hand out a non-Sendable value that way, so Locked asks
/// for Sendable values.)
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var protected: Value

    /// Puts `value` behind the lock.
    public init(_ value: Value) {
        self.protected = value
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&protected)
    }

    /// A copy of the value, read under the lock.
    public var value: Value {
        withLock { $0 }
    }
}
