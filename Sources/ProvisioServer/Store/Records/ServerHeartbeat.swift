import Foundation

/// What a running server says about itself in the database: the vault key it seals new records
/// under and the keys it holds. Refreshed on every key check; a row past `expiresAt` is a server
/// that stopped without saying so (a clean stop deletes its row). `keys retire` reads these.
public struct ServerHeartbeat: Sendable, Equatable {
    /// Random per process start.
    public var instanceID: String
    /// For an operator: the host name and process id.
    public var host: String
    public var activeKeyID: String
    /// Every key-encryption key id the server holds, the active one first.
    public var loadedKeyIDs: [String]
    public var startedAt: Date
    public var lastSeenAt: Date
    public var expiresAt: Date

    public init(
        instanceID: String, host: String, activeKeyID: String, loadedKeyIDs: [String], startedAt: Date, lastSeenAt: Date,
        expiresAt: Date
    ) {
        self.instanceID = instanceID
        self.host = host
        self.activeKeyID = activeKeyID
        self.loadedKeyIDs = loadedKeyIDs
        self.startedAt = startedAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
    }
}
