import Foundation

/// A signed-in console session: the cookie's secret is stored only as its SHA-256.
public struct ConsoleSessionRecord: Sendable, Equatable {
    public var tokenHash: String
    public var operatorID: String
    public var tenantID: String
    public var createdAt: Date
    public var expiresAt: Date
    public var lastSeenAt: Date
}
