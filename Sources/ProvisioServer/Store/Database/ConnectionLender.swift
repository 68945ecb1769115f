/// A fixed set of connections lent to one borrower at a time; borrowers beyond the set wait in
/// order. Used for SQLite, whose connections are not safe to share between concurrent queries.
actor ConnectionLender<Connection: Sendable> {
    private var idle: [Connection]
    private var waiting: [CheckedContinuation<Connection, Never>] = []
    let all: [Connection]

    init(_ connections: [Connection]) {
        precondition(!connections.isEmpty)
        self.idle = connections
        self.all = connections
    }

    func borrow() async -> Connection {
        if let connection = idle.popLast() { return connection }
        return await withCheckedContinuation { waiting.append($0) }
    }

    func giveBack(_ connection: Connection) {
        if waiting.isEmpty {
            idle.append(connection)
        } else {
            waiting.removeFirst().resume(returning: connection)
        }
    }

    func with<T: Sendable>(_ body: @Sendable (Connection) async throws -> T) async throws -> T {
        let connection = await borrow()
        do {
            let result = try await body(connection)
            giveBack(connection)
            return result
        } catch {
            giveBack(connection)
            throw error
        }
    }
}
