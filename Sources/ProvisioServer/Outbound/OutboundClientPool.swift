import AsyncHTTPClient
import ProvisioCore

/// AsyncHTTPClient instances for outbound calls, one per (owner, host, checked address), kept
/// for reuse so webhooks to the same endpoint share connections (and TLS sessions) instead of
/// connecting anew each time. Every client follows no redirect and is pinned, through its DNS
/// override, to the address that was checked.
///
/// Bounded without hurting anyone's call in flight: a client is leased for each call and only a
/// client nobody is using is ever shut down (the least recently used one first). One owner (a
/// tenant) keeps at most `perOwner` clients, so a tenant with many webhook hosts evicts its own
/// clients, not other tenants' or the network connector's. When every client that could make
/// room is busy, the call gets a client of its own, shut down when the call ends.
final class OutboundClientPool: Sendable {
    static let shared = OutboundClientPool(capacity: 64, perOwner: 8)

    /// A client handed to one call; give it back with `release`.
    struct Lease: Sendable {
        let key: String
        let client: HTTPClient
        /// False for a call-only client (no room in the pool): shut down on release.
        let pooled: Bool
    }

    private struct Entry {
        var client: HTTPClient
        var owner: String
        var users: Int
        var lastUsed: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var tick: UInt64 = 0
    }

    let capacity: Int
    let perOwner: Int
    private let state = Locked(State())

    init(capacity: Int, perOwner: Int) {
        self.capacity = max(1, capacity)
        self.perOwner = max(1, min(perOwner, capacity))
    }

    /// Runs `body` with a client for `host` at `address`, leased for the call.
    func withClient<Result: Sendable>(
        owner: String, host: String, address: String, pinned: Bool, _ body: (HTTPClient) async throws -> Result
    ) async rethrows -> Result {
        let lease = acquire(owner: owner, host: host, address: address, pinned: pinned)
        do {
            let result = try await body(lease.client)
            await release(lease)
            return result
        } catch {
            await release(lease)
            throw error
        }
    }

    func acquire(owner: String, host: String, address: String, pinned: Bool) -> Lease {
        let key = "\(owner)|\(host)|\(address)"
        let (lease, evicted): (Lease, [HTTPClient]) = state.withLock { state in
            state.tick += 1
            if var entry = state.entries[key] {
                entry.users += 1
                entry.lastUsed = state.tick
                state.entries[key] = entry
                return (Lease(key: key, client: entry.client, pooled: true), [])
            }
            var evicted: [HTTPClient] = []
            let client = Self.makeClient(host: host, address: address, pinned: pinned)
            // Room for the owner first, then for the pool; only idle clients make room.
            let owned = state.entries.filter { $0.value.owner == owner }
            if owned.count >= perOwner {
                guard let idle = Self.leastRecentlyUsedIdle(owned) else {
                    return (Lease(key: key, client: client, pooled: false), [])
                }
                evicted.append(state.entries.removeValue(forKey: idle)!.client)
            }
            if state.entries.count >= capacity {
                guard let idle = Self.leastRecentlyUsedIdle(state.entries) else {
                    return (Lease(key: key, client: client, pooled: false), evicted)
                }
                evicted.append(state.entries.removeValue(forKey: idle)!.client)
            }
            state.entries[key] = Entry(client: client, owner: owner, users: 1, lastUsed: state.tick)
            return (Lease(key: key, client: client, pooled: true), evicted)
        }
        // Idle and out of the map under the lock: no call holds them, none can take them now.
        for client in evicted { Task { try? await client.shutdown() } }
        return lease
    }

    func release(_ lease: Lease) async {
        guard lease.pooled else {
            try? await lease.client.shutdown()
            return
        }
        state.withLock { state in
            state.tick += 1
            guard var entry = state.entries[lease.key], entry.client === lease.client else { return }
            entry.users -= 1
            entry.lastUsed = state.tick
            state.entries[lease.key] = entry
        }
    }

    /// Shuts down every pooled client (a pool that is not process-wide, when it is done with).
    func shutdown() async {
        let clients = state.withLock { state in
            defer { state.entries = [:] }
            return state.entries.values.map(\.client)
        }
        for client in clients { try? await client.shutdown() }
    }

    /// The pooled clients per owner, and how many calls use each (for tests and metrics).
    var snapshot: [(owner: String, users: Int)] {
        state.withLock { state in state.entries.values.map { ($0.owner, $0.users) } }
    }

    private static func leastRecentlyUsedIdle(_ entries: [String: Entry]) -> String? {
        entries.filter { $0.value.users == 0 }.min { $0.value.lastUsed < $1.value.lastUsed }?.key
    }

    private static func makeClient(host: String, address: String, pinned: Bool) -> HTTPClient {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5)))
        configuration.httpVersion = .http1Only
        configuration.decompression = .disabled
        if pinned { configuration.dnsOverride = [host: address] }
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }
}
