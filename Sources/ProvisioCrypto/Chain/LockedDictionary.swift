import Foundation

/// A dictionary behind a lock, for small caches shared across request tasks.
///
/// `@unchecked Sendable` is safe because every access to `storage` happens while holding
/// `lock`, and the stored values are themselves `Sendable`.
final class LockedDictionary<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Key: Value] = [:]

    subscript(key: Key) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return storage[key]
    }

    /// Inserts, emptying the cache first when it is full (simple and bounded; a miss only costs
    /// one full validation).
    func insert(_ value: Value, for key: Key, capacity: Int) {
        lock.lock()
        defer { lock.unlock() }
        if storage.count >= capacity { storage.removeAll(keepingCapacity: true) }
        storage[key] = value
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return storage.count
    }
}
