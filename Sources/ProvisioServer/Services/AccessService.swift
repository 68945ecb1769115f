import Foundation
import ProvisioCore

/// Credentials: tenants and their API keys, customers' mobile sessions, single-use provision
/// tokens. Every secret is returned once and stored only as its SHA-256.
public struct AccessService: Sendable {
    public static let apiKeyPrefix = "prv_sk_"
    public static let mobileSessionPrefix = "prv_ms_"
    public static let provisionTokenPrefix = "prv_pt_"
    public static let networkKeyPrefix = "prv_nk_"

    public static let defaultSessionLifetime = 900
    public static let sessionLifetimeRange = 60...86_400
    public static let provisionTokenLifetime: TimeInterval = 300

    let store: any ProvisioStore & TokenStore
    let clock: any TimeSource

    public init(store: any ProvisioStore & TokenStore, clock: any TimeSource) {
        self.store = store
        self.clock = clock
    }

    /// Creates a tenant; the API key in the result is the only copy there will ever be.
    public func createTenant(name: String) async throws -> (tenant: TenantRecord, apiKey: String) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...128).contains(trimmed.unicodeScalars.count) else {
            throw ProvisioError(.invalidParameter, "The tenant name must be 1 to 128 characters.")
        }
        let apiKey = RandomToken.secret(prefix: Self.apiKeyPrefix)
        let tenant = TenantRecord(
            id: RandomToken.identifier(prefix: "ten_"), name: trimmed, apiKeyHash: RandomToken.sha256Hex(apiKey),
            createdAt: clock.now())
        try await store.insertTenant(tenant)
        return (tenant, apiKey)
    }

    /// Resolves any bearer token to its principal, or throws the precise reason it cannot.
    public func authenticate(bearer token: String) async throws -> Principal {
        let hash = RandomToken.sha256Hex(token)
        if token.hasPrefix(Self.apiKeyPrefix) {
            guard let tenant = try await store.tenant(apiKeyHash: hash) else { throw APIError.invalidCredentials() }
            return .tenant(tenant)
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
            guard let tenantID = try await store.tenantID(networkKeyHash: hash) else { throw APIError.invalidCredentials() }
            return .network(tenantID: tenantID)
        }
        throw APIError.invalidCredentials()
    }

    /// A credential for the card network's token service to call this tenant's network API.
    public func createNetworkKey(tenantID: String) async throws -> String {
        let key = RandomToken.secret(prefix: Self.networkKeyPrefix)
        try await store.insertNetworkCredential(keyHash: RandomToken.sha256Hex(key), tenantID: tenantID, at: clock.now())
        return key
    }

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
            tokenHash: RandomToken.sha256Hex(token), tenantID: tenantID, customerRef: customerRef,
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
