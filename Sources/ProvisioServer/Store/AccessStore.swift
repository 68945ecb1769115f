import Foundation

/// Persistence for credentials the issuer manages: API keys and the revocation of customers'
/// mobile sessions.
public protocol AccessStore: Sendable {
    /// A new tenant and its first key, in one transaction.
    func insertTenant(_ tenant: TenantRecord, firstKey: APIKeyRecord) async throws
    func tenantExists(id: String) async throws -> Bool
    func insertAPIKey(_ key: APIKeyRecord) async throws
    /// The key with this hash, revoked or not.
    func apiKey(hash: String) async throws -> APIKeyRecord?
    /// Every key of the tenant, oldest first, revoked ones included.
    func apiKeys(tenantID: String) async throws -> [APIKeyRecord]
    /// Revokes the key (a second revocation keeps the first time); nil when the tenant has no such key.
    func revokeAPIKey(id: String, tenantID: String, at time: Date) async throws -> APIKeyRecord?
    /// Records that the key was used at `time`.
    func touchAPIKey(id: String, at time: Date) async throws

    /// Deletes the session so its token no longer authenticates; false when there was none.
    func revokeMobileSession(id: String, tenantID: String, at time: Date) async throws -> Bool
    /// Deletes every session of the customer; returns how many there were.
    func revokeMobileSessions(customerRef: String, tenantID: String, at time: Date) async throws -> Int
}
