import ProvisioCore

/// A fixed set of connections lent to one borrower at a time; borrowers beyond the set wait in
/// order. Used for SQLite, whose connections are not safe to share between concurrent queries.
///
/// A lock rather than an actor: lending and returning are a few instructions, and an actor
/// would add two executor hops around every query; a borrower suspends only when every
/// connection is out.
final class ConnectionLender<Connection: Sendable>: Sendable {
    private struct State {
        var idle: [Connection]
        var waiting: [CheckedContinuation<Connection, Never>] = []
    }

    private let state: Locked<State>
    let all: [Connection]

    init(_ connections: [Connection]) {
        precondition(!connections.isEmpty)
        self.state = Locked(State(idle: connections))
        self.all = connections
    }

    func borrow() async -> Connection {
        if let connection = state.withLock({ $0.idle.popLast() }) { return connection }
        return await withCheckedContinuation { waiter in
            // Returned in between: take it now rather than wait for the next return.
            let connection = state.withLock { state -> Connection? in
                if let connection = state.idle.popLast() { return connection }
                state.waiting.append(waiter)
                return nil
            }
            if let connection { waiter.resume(returning: connection) }
        }
    }

    func giveBack(_ connection: Connection) {
        let waiter = state.withLock { state -> CheckedContinuation<Connection, Never>? in
            guard !state.waiting.isEmpty else {
                state.idle.append(connection)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiter?.resume(returning: connection)
    }

    func with<T: Sendable>(_ body: (Connection) async throws -> T) async throws -> T {
        let connection = await borrow()
        defer { giveBack(connection) }
        return try await body(connection)
    }
}
