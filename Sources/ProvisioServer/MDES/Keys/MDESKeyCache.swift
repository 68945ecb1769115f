import Foundation
import ProvisioCore
import ProvisioCrypto

/// The tenants' unsealed MDES keys, kept in memory for a short while: without it every request
/// reads the tenant's key rows and unseals each key again before its one RSA operation.
///
/// Bounded: at most `capacity` tenants (the least recently used goes first) and each entry for
/// `lifetime` after it was read from the store. A change made through `MDESKeyService` in this
/// process (`tenants mdes-key --rotate`, `--retire`) drops the tenant's entry at once; a change
/// made by another process is seen here once the entry has aged out, within `lifetime`.
public final class MDESKeyCache: Sendable {
    /// The process's cache: every `MDESKeyService` of the process shares it unless given another,
    /// so a change through any of them reaches every listener of the process.
    public static let shared = MDESKeyCache()

    public static let standardCapacity = 256
    public static let standardLifetime: TimeInterval = 60

    public let capacity: Int
    public let lifetime: TimeInterval

    private struct Entry: Sendable {
        var keys: [MDESIssuerKey]
        var loadedAt: Date
        var usedAt: Date
    }

    /// The loads of one tenant's keys under way, and how many times the tenant's keys were
    /// invalidated while they were.
    private struct Loading: Sendable {
        var count = 0
        var invalidations: UInt64 = 0
    }

    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        /// Only tenants with a load under way, so it stays as small as the requests in flight.
        /// A load that an invalidation of its tenant overtook is not stored, so a change racing
        /// with a read cannot leave the old keys cached; another tenant's change does not
        /// discard it.
        var loading: [String: Loading] = [:]
    }

    private let state = Locked(State())

    public init(capacity: Int = MDESKeyCache.standardCapacity, lifetime: TimeInterval = MDESKeyCache.standardLifetime) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// The tenant's keys: cached ones younger than `lifetime`, else what `load` reads (stored
    /// for the next requests). An empty list is not cached: a tenant about to get its first key
    /// should not wait for it.
    func keys(tenantID: String, now: Date, load: () async throws -> [MDESIssuerKey]) async throws -> [MDESIssuerKey] {
        let (cached, invalidations) = state.withLock { state -> ([MDESIssuerKey]?, UInt64) in
            if var entry = state.entries[tenantID] {
                if now >= entry.loadedAt, now.timeIntervalSince(entry.loadedAt) < lifetime {
                    entry.usedAt = now
                    state.entries[tenantID] = entry
                    return (entry.keys, 0)
                }
                state.entries[tenantID] = nil
            }
            state.loading[tenantID, default: Loading()].count += 1
            return (nil, state.loading[tenantID]?.invalidations ?? 0)
        }
        if let cached { return cached }
        let loaded: [MDESIssuerKey]
        do {
            loaded = try await load()
        } catch {
            state.withLock { Self.endLoad(tenantID, in: &$0) }
            throw error
        }
        state.withLock { state in
            let overtaken = state.loading[tenantID]?.invalidations != invalidations
            Self.endLoad(tenantID, in: &state)
            guard !loaded.isEmpty, !overtaken else { return }
            if state.entries[tenantID] == nil, state.entries.count >= capacity {
                state.entries = state.entries.filter { now.timeIntervalSince($0.value.loadedAt) < lifetime }
                if state.entries.count >= capacity, let oldest = state.entries.min(by: { $0.value.usedAt < $1.value.usedAt }) {
                    state.entries[oldest.key] = nil
                }
            }
            state.entries[tenantID] = Entry(keys: loaded, loadedAt: now, usedAt: now)
        }
        return loaded
    }

    private static func endLoad(_ tenantID: String, in state: inout State) {
        guard var loading = state.loading[tenantID] else { return }
        loading.count -= 1
        state.loading[tenantID] = loading.count > 0 ? loading : nil
    }

    /// Forgets the tenant's keys: the next request reads them from the store again.
    public func invalidate(tenantID: String) {
        state.withLock { state in
            state.entries[tenantID] = nil
            state.loading[tenantID]?.invalidations &+= 1
        }
    }

    /// How many tenants' keys are held now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Whether the tenant's keys are held now (tests).
    func holds(tenantID: String) -> Bool { state.withLock { $0.entries[tenantID] != nil } }
}
