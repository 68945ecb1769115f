import ProvisioCore
import SQLKit

/// Writes a request holds back to commit in one transaction with the last thing it stores.
///
/// The MDES listener binds one (`PendingWrites.$current`) around an operation and commits what
/// the operation deferred together with the answer it remembers for the `requestId`
/// (`MDESExchangeStore.completeMDESExchange`): an `authorizeService` then writes its token, the
/// token's history and audit lines, its webhooks and the stored answer in one transaction instead
/// of two. Either all of it is written or none, so a replay never finds an answer without its
/// token, nor a token whose answer was lost; a request that fails on Provisio's side (5xx) drops
/// what it deferred, as it forgets its claim.
///
/// Only writes whose caller needs nothing back defer (`SQLProvisioStore.deferrableTransaction`:
/// a new token with its history and webhooks); a read in the same request does not see them.
/// Once taken (committed or dropped) it is closed: a write that comes later, say from a task the
/// request started and that inherited the binding, runs in its own transaction as usual.
public final class PendingWrites: Sendable {
    typealias Write = @Sendable (any SQLDatabase) async throws -> Void

    /// The running request's deferred writes, if it defers them.
    @TaskLocal static var current: PendingWrites?

    private let state = Locked<(writes: [Write], closed: Bool)>(([], false))

    public init() {}

    /// Keeps `write` for the commit; false once closed (the caller then writes at once).
    func add(_ write: @escaping Write) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.writes.append(write)
            return true
        }
    }

    /// The writes kept, in order; closes.
    func take() -> [Write] {
        state.withLock { state in
            defer { state = ([], true) }
            return state.writes
        }
    }
}
