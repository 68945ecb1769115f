import NIOCore
import Synchronization

/// Request bodies built before a run, each sent once: for an endpoint that refuses a repeated
/// request (MDES de-duplicates `requestId`), so the load generator spends no CPU of its own
/// making them while it measures. Shared by every connection of a run; when it runs dry the
/// run ends early (`HTTPLoadGenerator.Result.bodiesRanOut`), measured up to that moment.
final class RequestBodyPool: Sendable {
    private let bodies: [ByteBuffer]
    private let next = Atomic<Int>(0)

    init(_ bodies: [ByteBuffer]) {
        self.bodies = bodies
    }

    var count: Int { bodies.count }

    /// The next unused body, or nil once all are taken.
    func take() -> ByteBuffer? {
        let index = next.add(1, ordering: .relaxed).oldValue
        return index < bodies.count ? bodies[index] : nil
    }

    /// Whether a `take()` has found the pool empty.
    var ranOut: Bool { next.load(ordering: .relaxed) > bodies.count }
}
