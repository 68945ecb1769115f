import Foundation
import ProvisioCore

/// Credentials: tenants and their API keys, customers' mobile sessions, single-use provision
/// tokens. Every secret is returned once and stored only as its SHA-256 (each is 32 random
/// bytes, so an unkeyed hash reveals nothing a guess could find).
public struct AccessService: Sendable {
    public static let apiKeyPrefix = "prv_sk_"
    public static let mobileSessionPrefix = "prv_ms_"
    public static let provisionTokenPrefix = "prv_pt_"
    public static let networkKeyPrefix = "prv_nk_"

    public static let defaultSessionLifetime = 900
    public static let sessionLifetimeRange = 60...86_400
    public static let provisionTokenLifetime: TimeInterval = 300

    /// How stale a key's `last_used_at` may get: one write per key per minute, not per request.
    public static let lastUsedResolution: TimeInterval = 60
    public static let keyNameLength = 1...64

    let store: any ProvisioStore & TokenStore & AccessStore
    let clock: any TimeSource

    public init(store: any ProvisioStore & TokenStore & AccessStore, clock: any TimeSource) {
        self.store = store
        self.clock = clock
    }

    /// Creates a tenant; the API key in the result is the only copy there will ever be.
    public func createTenant(name: String) async throws -> (tenant: TenantRecord, apiKey: String) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...128).contains(trimmed.unicodeScalars.count) else {
            throw ProvisioError(.invalidParameter, "The tenant name must be 1 to 128 characters.")
        }
        let now = clock.now()
        let tenant = TenantRecord(id: RandomToken.identifier(prefix: "ten_"), name: trimmed, createdAt: now)
        let (key, secret) = Self.newKey(tenantID: tenant.id, name: "default", scope: .full, at: now)
        try await store.insertTenant(tenant, firstKey: key)
        return (tenant, secret)
    }

    /// A further API key for the tenant; the secret in the result is the only copy.
    public func createAPIKey(tenantID: String, name: String, scope: APIKeyScope) async throws
        -> (key: APIKeyRecord, secret: String)
    {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.keyNameLength.contains(trimmed.unicodeScalars.count),
            trimmed.unicodeScalars.allSatisfy({ !CharacterSet.controlCharacters.contains($0) })
        else {
            throw ProvisioError(.invalidParameter, "The key name must be 1 to 64 characters, none of them control characters.")
        }
        try CardService.refuseCardNumber(in: trimmed, field: "name")
        guard try await store.tenantExists(id: tenantID) else {
            throw ProvisioError(.tenantNotFound, "No tenant with this id.")
        }
        let (key, secret) = Self.newKey(tenantID: tenantID, name: trimmed, scope: scope, at: clock.now())
        try await store.insertAPIKey(key)
        return (key, secret)
    }

    public func apiKeys(tenantID: String) async throws -> [APIKeyRecord] {
        try await store.apiKeys(tenantID: tenantID)
    }

    /// Revokes a key at once for every server sharing the database. Revoking a revoked key
    /// answers it unchanged.
    public func revokeAPIKey(id: String, tenantID: String) async throws -> APIKeyRecord {
        guard let key = try await store.revokeAPIKey(id: id, tenantID: tenantID, at: clock.now()) else {
            throw ProvisioError(.apiKeyNotFound, "The tenant has no API key with this id.")
        }
        return key
    }

    private static func newKey(tenantID: String, name: String, scope: APIKeyScope, at time: Date) -> (APIKeyRecord, String) {
        let secret = RandomToken.secret(prefix: apiKeyPrefix)
        let key = APIKeyRecord(
            id: RandomToken.identifier(prefix: "key_"), tenantID: tenantID, name: name, scope: scope,
            keyHash: RandomToken.sha256Hex(secret), createdAt: time)
        return (key, secret)
    }

    /// Resolves any bearer token to its principal, or throws the precise reason it cannot.
    public func authenticate(bearer token: String) async throws -> Principal {
        let hash = RandomToken.sha256Hex(token)
        if token.hasPrefix(Self.apiKeyPrefix) {
            guard let key = try await store.apiKey(hash: hash) else { throw APIError.invalidCredentials() }
            guard key.revokedAt == nil else {
                throw ProvisioError(.apiKeyRevoked, "This API key was revoked; use another of the tenant's keys.")
            }
            let now = clock.now()
            if key.lastUsedAt.map({ now.timeIntervalSince($0) >= Self.lastUsedResolution }) ?? true {
                try await store.touchAPIKey(id: key.id, at: now)
            }
            return .apiKey(key)
        }
        if token.hasPrefix(Self.mobileSessionPrefix) {
            guard let session = try await store.mobileSession(tokenHash: hash) else { throw APIError.invalidCredentials() }
            guard session.expiresAt > clock.now() else {
                throw ProvisioError(.tokenExpired, "The mobile session has expired; sign in again.")
            }
            return .mobileSession(session)
        }
        if token.hasPrefix(Self.provisionTokenPrefix) {
            guard let provisionToken = try await store.provisionToken(tokenHash: hash) else {
                throw APIError.invalidCredentials()
            }
            // A spent token still authenticates (until it expires) so that a retry with the same
            // Idempotency-Key replays the first answer; routes refuse to spend it again.
            guard provisionToken.expiresAt > clock.now() else {
                throw ProvisioError(.tokenExpired, "The provision token has expired; request a new one.")
            }
            return .provisionToken(provisionToken, tokenHash: hash)
        }
        if token.hasPrefix(Self.networkKeyPrefix) {
            guard let tenantID = try await store.tenantID(networkKeyHash: hash, at: clock.now()) else {
                throw APIError.invalidCredentials()
            }
            return .network(tenantID: tenantID)
        }
        throw APIError.invalidCredentials()
    }

    /// A credential for the card network's token service to call this tenant's network API.
    /// With `retiringPreviousAfter`, a rotation: the tenant's other network keys keep working
    /// for that many seconds (so the network can switch), then fail.
    public func createNetworkKey(tenantID: String, retiringPreviousAfter overlap: Int? = nil) async throws -> String {
        if let overlap, !Self.networkKeyOverlapRange.contains(overlap) {
            throw ProvisioError(
                .invalidParameter, "The overlap must be between 0 and \(Self.networkKeyOverlapRange.upperBound) seconds.")
        }
        // A retry after a crash: the first key never reached anyone; replace it.
        if let previous = IdempotentEffect.previous("network_key") {
            try await store.deleteNetworkCredential(keyHash: previous, tenantID: tenantID)
        }
        let key = RandomToken.secret(prefix: Self.networkKeyPrefix)
        let now = clock.now()
        try await store.insertNetworkCredential(
            keyHash: RandomToken.sha256Hex(key), tenantID: tenantID,
            retiringOthersAt: overlap.map { now.addingTimeInterval(TimeInterval($0)) }, at: now)
        return key
    }

    public static let networkKeyOverlapRange = 0...(7 * 86_400)

    public func createMobileSession(tenantID: String, customerRef: String, lifetimeSeconds: Int?) async throws
        -> (session: MobileSessionRecord, token: String)
    {
        let lifetime = lifetimeSeconds ?? Self.defaultSessionLifetime
        guard Self.sessionLifetimeRange.contains(lifetime) else {
            throw ProvisioError(
                .invalidParameter,
                "ttl_seconds must be between \(Self.sessionLifetimeRange.lowerBound) and \(Self.sessionLifetimeRange.upperBound)."
            )
        }
        try CardService.validateCustomerRef(customerRef)
        // A retry after a crash: the first session's token never reached anyone; replace it.
        if let previous = IdempotentEffect.previous("session") {
            try await store.deleteMobileSession(tokenHash: previous, tenantID: tenantID)
        }
        let token = RandomToken.secret(prefix: Self.mobileSessionPrefix)
        let now = clock.now()
        let session = MobileSessionRecord(
            id: RandomToken.identifier(prefix: "ms_"), tokenHash: RandomToken.sha256Hex(token), tenantID: tenantID,
            customerRef: customerRef,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetime)), createdAt: now)
        try await store.insertMobileSession(session)
        return (session, token)
    }

    public func createProvisionToken(card: CardRecord, wallet: Wallet) async throws -> (
        record: ProvisionTokenRecord, token: String
    ) {
        if let previous = IdempotentEffect.previous("provision") {
            try await store.deleteProvisionToken(tokenHash: previous, tenantID: card.tenantID)
        }
        let token = RandomToken.secret(prefix: Self.provisionTokenPrefix)
        let now = clock.now()
        let record = ProvisionTokenRecord(
            tokenHash: RandomToken.sha256Hex(token), tenantID: card.tenantID, cardID: card.id, wallet: wallet,
            expiresAt: now.addingTimeInterval(Self.provisionTokenLifetime), usedAt: nil, createdAt: now)
        try await store.insertProvisionToken(record)
        return (record, token)
    }

    /// Spends a provision token: of concurrent uses exactly one succeeds.
    public func consume(provisionTokenHash hash: String) async throws {
        guard try await store.consumeProvisionToken(tokenHash: hash, at: clock.now()) != nil else {
            throw ProvisioError(.tokenAlreadyUsed, "The provision token was already used or has expired; request a new one.")
        }
    }
}

extension AccessService {
    /// Ends one mobile session now; its token fails on the next request.
    public func revokeMobileSession(id: String, tenantID: String) async throws {
        guard try await store.revokeMobileSession(id: id, tenantID: tenantID, at: clock.now()) else {
            throw ProvisioError(.mobileSessionNotFound, "The tenant has no live mobile session with this id.")
        }
    }

    /// Ends every session of a customer (a lost phone); returns how many there were.
    public func revokeMobileSessions(customerRef: String, tenantID: String) async throws -> Int {
        try CardService.validateCustomerRef(customerRef)
        return try await store.revokeMobileSessions(customerRef: customerRef, tenantID: tenantID, at: clock.now())
    }
}
