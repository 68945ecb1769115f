import Foundation

/// One of a tenant's API keys. The key itself is shown once; only its SHA-256 is stored.
public struct APIKeyRecord: Sendable, Equatable {
    public var id: String
    public var tenantID: String
    public var name: String
    public var scope: APIKeyScope
    /// SHA-256 of the key, hex.
    public var keyHash: String
    public var createdAt: Date
    /// When the key last authenticated a request, to the minute (`APIKeyUsage`).
    public var lastUsedAt: Date?
    /// Set once; a revoked key authenticates nothing, on every server at once (each request
    /// reads the key's row).
    public var revokedAt: Date?

    public init(
        id: String, tenantID: String, name: String, scope: APIKeyScope, keyHash: String, createdAt: Date,
        lastUsedAt: Date? = nil, revokedAt: Date? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.name = name
        self.scope = scope
        self.keyHash = keyHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}
