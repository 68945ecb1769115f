import Foundation
import ProvisioCore

/// Persistence for tokens, their history, and the card networks' credentials.
public protocol TokenStore: Sendable {
    /// Adds a network key; with `retiringOthersAt`, the tenant's other keys stop working then
    /// (a rotation's overlap), unless they already stop sooner.
    func insertNetworkCredential(keyHash: String, tenantID: String, retiringOthersAt: Date?, at time: Date) async throws
    /// Forgets a network key whose secret was never delivered (a retry after a crash).
    func deleteNetworkCredential(keyHash: String, tenantID: String) async throws
    /// The tenant of a network key still valid at `time`.
    func tenantID(networkKeyHash: String, at time: Date) async throws -> String?

    /// The tenant's newest card with this PAN fingerprint.
    func card(panFingerprint: String, tenantID: String) async throws -> CardRecord?

    /// Stores a new token with its first events, atomically.
    /// The token, its history and the webhooks announcing it, in one transaction.
    func insertToken(_ token: TokenRecord, events: [TokenEventRecord], outbox: [OutboxEntry]) async throws
    func token(id: String, tenantID: String) async throws -> TokenRecord?
    func token(networkTokenRef: String, tenantID: String) async throws -> TokenRecord?
    /// The tenant's tokens matching every field `search` sets, a page at a time, oldest first
    /// (or newest first).
    func tokens(matching search: TokenSearch, tenantID: String, cursor: String?, limit: Int, newestFirst: Bool)
        async throws -> Page<TokenRecord>
    /// Moves a token from `expected` to `updated.state` only if it is still in `expected`
    /// (so concurrent changes cannot both win), recording the event; nil if it was not.
    /// The change, its history entry and its webhook in one transaction; nil (nothing written)
    /// when the token is no longer in `expectedState`.
    func updateToken(_ updated: TokenRecord, expectedState: TokenState, event: TokenEventRecord, outbox: [OutboxEntry])
        async throws -> TokenRecord?
    /// Writes the token's details the network reported (last four digits, expiry), with the
    /// audit line and the webhooks announcing them, in one transaction; nil if no such token.
    func updateTokenDetails(_ updated: TokenRecord, change: AuditChange, outbox: [OutboxEntry]) async throws
        -> TokenRecord?
    func tokenEvents(tokenID: String) async throws -> [TokenEventRecord]
    /// Records a change to a token that has no history entry of its own (new card details).
    func appendAudit(_ change: AuditChange, tenantID: String, at time: Date) async throws
    /// An audit line and the webhooks announcing it, in one transaction (a notice about a token
    /// that does not change it).
    func appendAudit(_ change: AuditChange, tenantID: String, at time: Date, outbox: [OutboxEntry]) async throws
}
