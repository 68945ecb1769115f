import Foundation

/// Delivers a completion exactly once, however many paths race to call it (the answer, an
/// error, the 20 s timeout, the cardholder cancelling): the first `complete` wins, the others are
/// ignored and told so.
///
/// A final class over `Locked`, not an actor: PassKit calls from arbitrary threads and expects
/// synchronous completion handlers. The completion runs outside the lock, so it may itself call
/// `complete` without deadlocking; it is released after it runs so it cannot keep a view
/// controller alive.
public final class CompletionOnce<Value: Sendable>: Sendable {
    private let completion: Locked<(@Sendable (Value) -> Void)?>

    /// Wraps `completion`, which will run at most once.
    public init(_ completion: @escaping @Sendable (Value) -> Void) {
        self.completion = Locked(completion)
    }

    /// Calls the completion with `value` if nobody did before; returns whether this call delivered.
    @discardableResult
    public func complete(_ value: Value) -> Bool {
        let pending = completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
        guard let pending else { return false }
        pending(value)
        return true
    }

    /// Whether the completion has been delivered.
    public var isCompleted: Bool {
        completion.withLock { $0 == nil }
    }
}
