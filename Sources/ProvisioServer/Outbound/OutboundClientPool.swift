import AsyncHTTPClient
import ProvisioCore

/// AsyncHTTPClient instances for outbound calls, one per (host, checked address) pair, kept
/// for reuse so webhooks to the same endpoint share connections (and TLS sessions) instead of
/// connecting anew each time. Every client follows no redirect and is pinned, through its DNS
/// override, to the address that was checked. Process-wide and bounded: the oldest client is
/// shut down when a new pair would exceed `capacity`.
final class OutboundClientPool: Sendable {
    static let shared = OutboundClientPool(capacity: 64)

    private struct State {
        var clients: [String: HTTPClient] = [:]
        var order: [String] = []
    }

    private let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) {
        self.capacity = capacity
    }

    func client(host: String, address: String, pinned: Bool) -> HTTPClient {
        let key = "\(host)|\(address)"
        let (client, evicted): (HTTPClient, HTTPClient?) = state.withLock { state in
            if let existing = state.clients[key] { return (existing, nil) }
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5)))
            configuration.httpVersion = .http1Only
            configuration.decompression = .disabled
            if pinned { configuration.dnsOverride = [host: address] }
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            state.clients[key] = client
            state.order.append(key)
            var evicted: HTTPClient?
            if state.order.count > capacity {
                let oldest = state.order.removeFirst()
                evicted = state.clients.removeValue(forKey: oldest)
            }
            return (client, evicted)
        }
        if let evicted { Task { try? await evicted.shutdown() } }
        return client
    }
}
