import Foundation
import HummingbirdTesting
import ProvisioCore

/// The raw client's own connection to the test server. It is replaced before a request when the
/// server said it would close it (`Connection: close`), when a send found it closed, or when it
/// sat idle long enough that the server's idle timer may be closing it at that very moment: a
/// request crossing that close is reset, and a reset POST cannot safely be sent again. HTTP
/// client pools avoid the race the same way, by forgetting idle connections well before the
/// server's timeout.
final class ReplacementConnection: Sendable {
    private struct State {
        var client: TestClient?
        /// Counts connections opened, so an exchange ending on a replaced one changes nothing.
        var generation = 0
        var mustReplace = false
        var inFlight = 0
        var lastUsed = ContinuousClock.now
        /// Replaced connections, closed at the end (a request may still be using one).
        var retired: [TestClient] = []
    }
    private let port: Int
    /// The longest idle time after which the connection is still reused.
    private let reuseWithin: Duration
    private let state = Locked(State())

    init(port: Int, serverIdleTimeout: Duration) {
        self.port = port
        self.reuseWithin = serverIdleTimeout / 3
    }

    /// The connection to send the next request on, counted as in use until `end`.
    func begin() -> (client: TestClient, generation: Int) {
        let now = ContinuousClock.now
        return state.withLock { state in
            let idleTooLong = state.inFlight == 0 && now - state.lastUsed >= reuseWithin
            if let client = state.client, !state.mustReplace, !idleTooLong {
                state.inFlight += 1
                return (client, state.generation)
            }
            if let old = state.client { state.retired.append(old) }
            let fresh = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
            fresh.connect()
            state.client = fresh
            state.mustReplace = false
            state.inFlight = 1
            state.generation += 1
            return (fresh, state.generation)
        }
    }

    /// The exchange on that connection ended now; `closed` when it cannot carry another.
    func end(generation: Int, closed: Bool) {
        let now = ContinuousClock.now
        state.withLock { state in
            guard generation == state.generation else { return }
            state.inFlight -= 1
            state.lastUsed = now
            if closed { state.mustReplace = true }
        }
    }

    /// Closes every connection opened.
    func shutdown() async {
        let clients = state.withLock { state in
            defer {
                state.client = nil
                state.retired = []
            }
            return state.retired + (state.client.map { [$0] } ?? [])
        }
        for client in clients { try? await client.shutdown() }
    }
}
