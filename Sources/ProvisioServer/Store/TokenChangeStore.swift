import Foundation

/// A card replaced with a new number, and the outbox of card changes its tokens have still to
/// learn at the network (`TokenChangeDeliveryRecord`).
public protocol TokenChangeStore: Sendable {
    /// Writes the replaced card's number (sealed, digested, last 4) and expiry, audited as
    /// `card.replaced` (no number in the line); nil when the tenant has no such card still open.
    func replaceCardNumber(_ card: CardRecord, at time: Date) async throws -> CardRecord?
    /// Whether another card of the tenant, not closed, has the number of this fingerprint.
    func openCardID(panFingerprint: String, tenantID: String, excluding cardID: String) async throws -> String?

    /// Records a change the token has still to learn (or one refused, to be seen); a pending
    /// change of the same kind for the token is replaced by it (both are read from the card).
    func recordTokenChange(_ delivery: TokenChangeDeliveryRecord, audit: AuditChange?) async throws
    /// The token has the change: its pending ones of that kind are done.
    func completeTokenChanges(tokenID: String, kind: TokenChangeDeliveryRecord.Kind, at time: Date) async throws
    /// Claims the pending changes due now (each to one claimer, until `leaseUntil`).
    func claimDueTokenChanges(now: Date, leaseUntil: Date, limit: Int) async throws -> [TokenChangeDeliveryRecord]
    /// Stores a change after an attempt (its state, count, next time and code), with an audit line.
    func updateTokenChange(_ delivery: TokenChangeDeliveryRecord, audit: AuditChange?) async throws
    /// The token's changes, oldest first.
    func tokenChanges(tokenID: String) async throws -> [TokenChangeDeliveryRecord]
}
