import ProvisioCore

/// Writes items in groups: while one group is being written, the items that arrive queue up and
/// go together in the next write. Under load one statement and one round trip to the writer
/// serve many requests; alone, an item is written at once (nothing waits for a timer). Each
/// caller still returns only once its own item is committed, so nothing acknowledged is lost.
///
/// A group that fails is written again item by item, so one bad item fails only its own caller.
final class GroupCommit<Item: Sendable>: Sendable {
    typealias Waiter = CheckedContinuation<Void, any Error>

    private struct Queue {
        var pending: [(item: Item, waiter: Waiter)] = []
        var writing = false
    }

    private let write: @Sendable ([Item]) async throws -> Void
    private let maximumGroup: Int
    private let queue = Locked(Queue())

    /// `write` stores one group (one statement or one transaction); `maximumGroup` bounds it.
    init(maximumGroup: Int = 64, write: @escaping @Sendable ([Item]) async throws -> Void) {
        precondition(maximumGroup >= 1)
        self.maximumGroup = maximumGroup
        self.write = write
    }

    /// How many items wait for the next write (for tests and metrics).
    var queuedCount: Int { queue.withLock { $0.pending.count } }

    /// Returns once `item` is written, or throws what writing it threw.
    func submit(_ item: Item) async throws {
        try await withCheckedThrowingContinuation { (waiter: Waiter) in
            let startsWriter = queue.withLock { queue in
                queue.pending.append((item, waiter))
                guard !queue.writing else { return false }
                queue.writing = true
                return true
            }
            if startsWriter {
                Task { await self.drain() }
            }
        }
    }

    /// Writes groups until the queue is empty; one drain runs at a time.
    private func drain() async {
        while true {
            let group = queue.withLock { queue in
                let group = Array(queue.pending.prefix(maximumGroup))
                queue.pending.removeFirst(group.count)
                if group.isEmpty { queue.writing = false }
                return group
            }
            guard !group.isEmpty else { return }
            do {
                try await write(group.map(\.item))
                for entry in group { entry.waiter.resume() }
            } catch  where group.count > 1 {
                for entry in group {
                    do {
                        try await write([entry.item])
                        entry.waiter.resume()
                    } catch {
                        entry.waiter.resume(throwing: error)
                    }
                }
            } catch {
                group[0].waiter.resume(throwing: error)
            }
        }
    }
}
