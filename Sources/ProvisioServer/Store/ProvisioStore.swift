import Foundation

/// The persistence port of the server. One implementation (`SQLProvisioStore`) serves SQLite
/// and PostgreSQL; the conformance suite in the tests runs against both.
public protocol ProvisioStore: ServerInstanceStore, Sendable {
    func ping() async throws

    func insertCard(_ card: CardRecord) async throws
    func card(id: String, tenantID: String) async throws -> CardRecord?
    func cards(tenantID: String, customerRef: String, cursor: String?, limit: Int) async throws -> Page<CardRecord>
    /// Stores a reissued card's new details (`changedFields` name them for the audit log);
    /// nil when the tenant has no such card still open (active or locked).
    func updateCardDetails(_ card: CardRecord, changedFields: [String], at time: Date) async throws -> CardRecord?
    /// Moves the card to `status.to` if it is in one of `status.from` (audited); otherwise leaves
    /// it as it is. Returns the card as it now is, or nil when there is no such card for the tenant.
    func setCardStatus(id: String, tenantID: String, status: CardStatusChange, at time: Date) async throws -> CardRecord?

    func insertAttempt(_ attempt: ProvisioningAttemptRecord) async throws
    func attempts(cardID: String, tenantID: String, cursor: String?, limit: Int) async throws -> Page<ProvisioningAttemptRecord>

    func insertMobileSession(_ session: MobileSessionRecord) async throws
    /// Forgets a session (or provision token) whose secret was never delivered: a retry after a
    /// crash replaces it instead of leaving a second one.
    func deleteMobileSession(tokenHash: String, tenantID: String) async throws
    func deleteProvisionToken(tokenHash: String, tenantID: String) async throws
    func mobileSession(tokenHash: String) async throws -> MobileSessionRecord?

    func insertProvisionToken(_ token: ProvisionTokenRecord) async throws
    func provisionToken(tokenHash: String) async throws -> ProvisionTokenRecord?
    /// Marks the token used if it is unused and unexpired at `time`; returns it only then.
    /// Atomic: of concurrent callers, exactly one gets the token.
    func consumeProvisionToken(tokenHash: String, at time: Date) async throws -> ProvisionTokenRecord?

    /// Claims `key` within `scope` (a tenant, or one customer of a tenant) for one attempt
    /// holding `lease`; of concurrent claims exactly one gets `.claimed`. A claim still in
    /// progress whose lease has expired at `time` (its holder crashed) is taken over by a claim
    /// for the same request, so a key never stays stuck.
    func claimIdempotencyKey(scope: String, key: String, requestHash: String, lease: IdempotencyLease, at time: Date)
        async throws -> IdempotencyClaim
    /// Extends the lease of a claim this attempt still holds; false when it no longer does.
    func renewIdempotencyLease(scope: String, key: String, token: String, until: Date) async throws -> Bool
    /// Stores the answer (the body sealed by the caller); false when the claim was lost.
    @discardableResult
    func completeIdempotencyKey(scope: String, key: String, token: String, status: Int, body: String) async throws -> Bool
    /// Forgets a claim whose request failed in a way worth retrying (a server error).
    func releaseIdempotencyKey(scope: String, key: String, token: String) async throws
    func idempotencyRecord(scope: String, key: String) async throws -> IdempotencyRecord?
    /// Deletes keys created before `cutoff`; returns how many.
    func purgeIdempotencyKeys(createdBefore cutoff: Date) async throws -> Int
}

public enum IdempotencyClaim: Sendable, Equatable {
    case claimed
    /// Taken over from an attempt whose lease ran out; `previousEffect` is what that attempt
    /// had already done (`kind:id`), if anything.
    case tookOver(previousEffect: String?)
    case existing(IdempotencyRecord)
}
