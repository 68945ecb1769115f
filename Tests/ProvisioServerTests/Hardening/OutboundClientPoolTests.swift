import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

@testable import ProvisioServer

/// The outbound pool never shuts down a client a call is using, and one tenant's many hosts
/// evict only that tenant's idle clients. Before, the pool evicted the oldest of 64 clients
/// first-in-first-out, busy or not: a tenant adding webhook hosts shut down the client another
/// tenant's delivery (or the network connector) was sending on.
@Suite struct OutboundClientPoolTests {
    /// A POST through `client` to the receiver, by the name the client pins to loopback (the
    /// receiver answers 204).
    static func call(_ client: HTTPClient, host: String, _ receiver: WebhookReceiver) async throws -> Int {
        var request = HTTPClientRequest(url: "http://\(host):\(receiver.port)/hooks")
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: "{}"))
        // A bound against a hang, not a speed check: loaded CI machines are slow.
        return Int(try await client.execute(request, timeout: .seconds(30)).status.code)
    }

    @Test func aClientInUseSurvivesEveryEviction() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        let pool = OutboundClientPool(capacity: 2, perOwner: 2)
        let busy = pool.acquire(owner: "tenant:a", host: "a.test", address: "127.0.0.1", pinned: true)
        // Other tenants come and go, each needing room.
        for index in 0..<5 {
            let lease = pool.acquire(owner: "tenant:b\(index)", host: "b\(index).test", address: "127.0.0.1", pinned: true)
            #expect(try await Self.call(lease.client, host: "b\(index).test", receiver) == 204)
            await pool.release(lease)
        }
        #expect(pool.snapshot.contains { $0.owner == "tenant:a" && $0.users == 1 })
        #expect(pool.snapshot.count <= 2)
        // Still open: a call on it goes through.
        #expect(try await Self.call(busy.client, host: "a.test", receiver) == 204)
        await pool.release(busy)
        #expect(pool.snapshot.allSatisfy { $0.users == 0 })
        await pool.shutdown()
    }

    @Test func oneTenantsManyHostsEvictOnlyItsOwnClients() async throws {
        let pool = OutboundClientPool(capacity: 8, perOwner: 2)
        let other = pool.acquire(owner: "tenant:quiet", host: "quiet.test", address: "127.0.0.1", pinned: true)
        await pool.release(other)
        for index in 0..<6 {
            let lease = pool.acquire(owner: "tenant:noisy", host: "h\(index).test", address: "127.0.0.1", pinned: true)
            await pool.release(lease)
        }
        let owners = pool.snapshot.map(\.owner)
        #expect(owners.filter { $0 == "tenant:noisy" }.count == 2)
        #expect(owners.contains("tenant:quiet"))
        // The quiet tenant's client is the same one, not a new one.
        let again = pool.acquire(owner: "tenant:quiet", host: "quiet.test", address: "127.0.0.1", pinned: true)
        #expect(again.client === other.client && again.pooled)
        await pool.release(again)
        await pool.shutdown()
    }

    @Test func whenEveryClientIsBusyACallGetsOneOfItsOwn() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        let pool = OutboundClientPool(capacity: 1, perOwner: 1)
        let busy = pool.acquire(owner: "tenant:a", host: "a.test", address: "127.0.0.1", pinned: true)
        let extra = pool.acquire(owner: "tenant:b", host: "b.test", address: "127.0.0.1", pinned: true)
        #expect(!extra.pooled)
        #expect(try await Self.call(extra.client, host: "b.test", receiver) == 204)
        await pool.release(extra)
        #expect(pool.snapshot.map(\.owner) == ["tenant:a"])
        #expect(try await Self.call(busy.client, host: "a.test", receiver) == 204)
        await pool.release(busy)
        // Both tenants busy at once within one owner's share: the second call of the same
        // tenant to another host also gets its own client.
        let first = pool.acquire(owner: "tenant:a", host: "a.test", address: "127.0.0.1", pinned: true)
        let second = pool.acquire(owner: "tenant:a", host: "c.test", address: "127.0.0.1", pinned: true)
        #expect(first.pooled && !second.pooled)
        await pool.release(second)
        await pool.release(first)
        await pool.shutdown()
    }

    @Test func withClientReleasesOnThrow() async throws {
        struct Failure: Error {}
        let pool = OutboundClientPool(capacity: 2, perOwner: 2)
        await #expect(throws: Failure.self) {
            try await pool.withClient(owner: "tenant:a", host: "a.test", address: "127.0.0.1", pinned: true) { _ in
                throw Failure()
            }
        }
        #expect(pool.snapshot.map(\.users) == [0])
        await pool.shutdown()
    }
}
