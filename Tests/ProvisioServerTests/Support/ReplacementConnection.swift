import HummingbirdTesting
import ProvisioCore

/// The connection the raw client uses once the server has closed the framework's own.
final class ReplacementConnection: Sendable {
    private let port: Int?
    private let state = Locked<(client: TestClient?, closed: Bool)>((nil, false))

    init(port: Int?) { self.port = port }

    /// nil while the original connection is usable.
    func current() async throws -> TestClient? {
        let (needsNew, existing): (Bool, TestClient?) = state.withLock { state in
            defer { state.closed = false }
            return (state.closed, state.client)
        }
        guard needsNew, let port else { return existing }
        let fresh = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
        fresh.connect()
        let old: TestClient? = state.withLock { state in
            defer { state.client = fresh }
            return state.client
        }
        try? await old?.shutdown()
        return fresh
    }

    func noteClose(_ closedByServer: Bool) {
        if closedByServer { state.withLock { $0.closed = true } }
    }
}
