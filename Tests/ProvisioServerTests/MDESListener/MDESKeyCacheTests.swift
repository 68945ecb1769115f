import Foundation
import ProvisioCore
import ProvisioCrypto
import Testing

@testable import ProvisioServer

/// The listener's cache of unsealed MDES keys: bounded, short-lived, and dropped at once by a
/// rotation or retirement made in this process; another process's change shows within its
/// lifetime.
@Suite struct MDESKeyCacheTests {
    static let start = Date(timeIntervalSince1970: 1_893_456_000)

    /// A loader that counts its calls.
    final class Loader: Sendable {
        let calls = Locked(0)
        let keys: [MDESIssuerKey]
        init(_ keys: [MDESIssuerKey]) { self.keys = keys }
        func load() -> [MDESIssuerKey] {
            calls.withLock { $0 += 1 }
            return keys
        }
    }

    static let key = try! MDESIssuerKey.generate(keySizeInBits: 2048)

    @Test func entriesLiveTheirLifetimeAndNoLonger() async throws {
        let cache = MDESKeyCache(capacity: 4, lifetime: 60)
        let loader = Loader([Self.key])
        for offset in [0.0, 30, 59.9] {
            _ = try await cache.keys(tenantID: "ten_a", now: Self.start.addingTimeInterval(offset)) { loader.load() }
        }
        #expect(loader.calls.value == 1)
        _ = try await cache.keys(tenantID: "ten_a", now: Self.start.addingTimeInterval(60)) { loader.load() }
        #expect(loader.calls.value == 2)
        // A clock that went back does not make an entry young again.
        _ = try await cache.keys(tenantID: "ten_a", now: Self.start) { loader.load() }
        #expect(loader.calls.value == 3)
        // No key yet is not remembered: the tenant's first key works at once.
        let none = Loader([])
        _ = try await cache.keys(tenantID: "ten_b", now: Self.start) { none.load() }
        _ = try await cache.keys(tenantID: "ten_b", now: Self.start) { none.load() }
        #expect(none.calls.value == 2 && !cache.holds(tenantID: "ten_b"))
    }

    @Test func theLeastRecentlyUsedTenantMakesRoom() async throws {
        let cache = MDESKeyCache(capacity: 2, lifetime: 60)
        let loader = Loader([Self.key])
        _ = try await cache.keys(tenantID: "ten_a", now: Self.start) { loader.load() }
        _ = try await cache.keys(tenantID: "ten_b", now: Self.start.addingTimeInterval(1)) { loader.load() }
        _ = try await cache.keys(tenantID: "ten_a", now: Self.start.addingTimeInterval(2)) { loader.load() }
        _ = try await cache.keys(tenantID: "ten_c", now: Self.start.addingTimeInterval(3)) { loader.load() }
        #expect(cache.count == 2)
        #expect(cache.holds(tenantID: "ten_a") && cache.holds(tenantID: "ten_c") && !cache.holds(tenantID: "ten_b"))
    }

    @Test func aLoadOverlappingAnInvalidationIsNotKept() async throws {
        let cache = MDESKeyCache(capacity: 4, lifetime: 60)
        _ = try await cache.keys(tenantID: "ten_a", now: Self.start) {
            // The keys were read, then changed and invalidated before the read was stored.
            cache.invalidate(tenantID: "ten_a")
            return [Self.key]
        }
        #expect(!cache.holds(tenantID: "ten_a"))
    }

    /// Another tenant's change during a load does not discard it (the process's cache is shared
    /// by every tenant, so a global count of changes made busy tenants miss the cache).
    @Test func anotherTenantsInvalidationKeepsTheLoad() async throws {
        let cache = MDESKeyCache(capacity: 4, lifetime: 60)
        _ = try await cache.keys(tenantID: "ten_a", now: Self.start) {
            cache.invalidate(tenantID: "ten_b")
            return [Self.key]
        }
        #expect(cache.holds(tenantID: "ten_a"))
        // Two loads of one tenant, the change between their starts: only the later one is kept.
        let loader = Loader([Self.key])
        cache.invalidate(tenantID: "ten_a")
        _ = try await cache.keys(tenantID: "ten_a", now: Self.start) {
            _ = try await cache.keys(tenantID: "ten_a", now: Self.start) {
                #expect(!cache.holds(tenantID: "ten_a"))
                return loader.load()
            }
            #expect(cache.holds(tenantID: "ten_a"), "the inner load began after no change: kept")
            cache.invalidate(tenantID: "ten_a")
            return loader.load()
        }
        #expect(!cache.holds(tenantID: "ten_a"), "the outer load was overtaken by the change")
        // A failed load leaves nothing behind that would discard the next one.
        await #expect(throws: ProvisioError.self) {
            _ = try await cache.keys(tenantID: "ten_c", now: Self.start) { throw ProvisioError(.internalError, "x") }
        }
        _ = try await cache.keys(tenantID: "ten_c", now: Self.start) { loader.load() }
        #expect(cache.holds(tenantID: "ten_c"))
    }

    /// Over the listener: a rotation and a retirement through `MDESKeyService` in this process
    /// take effect on the next request; a key added by another process (its own cache) is
    /// refused until the listener's entry ages out, then accepted.
    @Test(arguments: TestEngine.available)
    func changesReachTheListener(_ engine: TestEngine) async throws {
        try await MDESListenerHarness.run(engine) { mdes in
            let store = SQLProvisioStore(handle: mdes.server.services.handle)
            let service = MDESKeyService(store: store, vault: mdes.server.services.vault, clock: mdes.server.clock)
            func decision(_ reference: String, for key: MDESIssuerKey) async throws -> MDESListenerHarness.Answer {
                try await mdes.post(
                    "authorizeService",
                    try mdes.authorize(reference: reference, payload: try mdes.encrypt(mdes.cardPlaintext(), for: key)))
            }
            #expect(try await decision("TUR-CACHE-1", for: mdes.key)["decision"] == "APPROVED")
            #expect(MDESKeyCache.shared.holds(tenantID: mdes.tenantID))

            // --rotate: the new key decrypts on the very next request.
            let rotated = try await service.key(tenantID: mdes.tenantID, keySize: 2048, rotate: true)
            let newKey = try #require(
                try await service.liveKeys(tenantID: mdes.tenantID).first { $0.publicKeyFingerprint == rotated.fingerprint })
            #expect(try await decision("TUR-CACHE-2", for: newKey)["decision"] == "APPROVED")
            #expect(try await decision("TUR-CACHE-3", for: mdes.key)["decision"] == "APPROVED")

            // --retire: the old key stops at once.
            _ = try await service.retire(tenantID: mdes.tenantID, fingerprint: mdes.key.publicKeyFingerprint)
            #expect(try await decision("TUR-CACHE-4", for: mdes.key).errorCode == "CRYPTOGRAPHY_ERROR")
            #expect(try await decision("TUR-CACHE-5", for: newKey)["decision"] == "APPROVED")

            // Another process's rotation (its own cache): seen once the entry is older than the lifetime.
            let elsewhere = MDESKeyService(
                store: store, vault: mdes.server.services.vault, clock: mdes.server.clock, cache: MDESKeyCache())
            let third = try await elsewhere.key(tenantID: mdes.tenantID, keySize: 2048, rotate: true)
            let thirdKey = try #require(
                try await service.liveKeys(tenantID: mdes.tenantID).first { $0.publicKeyFingerprint == third.fingerprint })
            #expect(try await decision("TUR-CACHE-6", for: thirdKey).errorCode == "CRYPTOGRAPHY_ERROR")
            mdes.server.clock.advance(by: MDESKeyCache.standardLifetime)
            #expect(try await decision("TUR-CACHE-7", for: thirdKey)["decision"] == "APPROVED")
        }
    }
}
