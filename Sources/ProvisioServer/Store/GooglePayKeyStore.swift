import Foundation

/// Persistence for the tenants' Google Pay keys: the issuer signing key in force (one at a time)
/// and Google's encryption keys. Every change appends its audit line in the same transaction.
public protocol GooglePayKeyStore: AuditStore, Sendable {
    /// The tenant's signing key in force, nil when it has none yet.
    func currentGooglePaySigningKey(tenantID: String) async throws -> GooglePaySigningKeyRecord?
    /// Every signing key of the tenant, replaced ones included, newest first.
    func googlePaySigningKeys(tenantID: String) async throws -> [GooglePaySigningKeyRecord]
    /// Adds `key` and returns the key in force. Without `replacing`, only when the tenant has no
    /// key in force (two concurrent first calls make one key, not two); otherwise the key in
    /// force comes back and `key` is dropped. With `replacing`, `key` takes over and the previous
    /// one is marked replaced, its sealed secret forgotten.
    func addGooglePaySigningKey(_ key: GooglePaySigningKeyRecord, replacing: Bool) async throws -> GooglePaySigningKeyRecord
    /// Google's encryption keys of the tenant, in the order it gave them.
    func googleEncryptionKeys(tenantID: String) async throws -> [GoogleEncryptionKeyRecord]
    /// Replaces all of the tenant's Google encryption keys (an empty list removes them).
    func replaceGoogleEncryptionKeys(_ keys: [GoogleEncryptionKeyRecord], tenantID: String, at time: Date) async throws
}
