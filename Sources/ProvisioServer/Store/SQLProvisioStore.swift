import Foundation
import ProvisioCore
import SQLKit

/// `ProvisioStore` over SQLKit, identical SQL for SQLite and PostgreSQL. Atomic operations are
/// single statements (`ON CONFLICT DO NOTHING … RETURNING`, `UPDATE … WHERE … RETURNING`), so
/// they hold across connections and across server processes.
public struct SQLProvisioStore: ProvisioStore {
    public let handle: any DatabaseHandle
    /// Provisioning attempts, one per wallet request: written in groups under load (one
    /// statement and one trip to the single SQLite writer for many requests).
    private let attemptWriter: GroupCommit<ProvisioningAttemptRecord>

    public init(handle: any DatabaseHandle) {
        self.handle = handle
        self.attemptWriter = GroupCommit { attempts in try await Self.insertAttempts(attempts, handle: handle) }
    }

    public func ping() async throws {
        do {
            _ = try await handle.read { try await $0.raw("SELECT 1 AS one").all() }
        } catch {
            throw ProvisioError(.databaseUnavailable, "The database does not answer.")
        }
    }

    // MARK: Tenants

    public func tenantExists(id: String) async throws -> Bool {
        try await handle.read { database in
            try await database.raw("SELECT id FROM tenants WHERE id = \(bind: id)").first() != nil
        }
    }

    // MARK: Cards

    public func insertCard(_ card: CardRecord) async throws {
        try await handle.transaction { database in
            try await IdempotentEffect.record("card", id: card.id, in: database)
            try await database.insert(into: "cards").model(card, with: RecordCoding.encoder).run()
            try await Self.audit(
                AuditChange("card.created", target: "card", card.id), tenantID: card.tenantID, at: card.createdAt, in: database)
        }
    }

    public func card(id: String, tenantID: String) async throws -> CardRecord? {
        try await handle.read { database in
            try await database.raw("SELECT * FROM cards WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID)").first()
                .map(Self.card(from:))
        }
    }

    public func cards(tenantID: String, customerRef: String, cursor: String?, limit: Int) async throws -> Page<CardRecord> {
        let rows = try await keysetRows(
            table: "cards", tenantID: tenantID, filters: [("customer_ref", customerRef)], cursor: cursor, limit: limit)
        let cards = try rows.map(Self.card(from:))
        return Self.page(cards, limit: limit) { PageCursor(createdAt: $0.createdAt.epochMilliseconds, id: $0.id) }
    }

    public func updateCardDetails(_ card: CardRecord, changedFields: [String], at time: Date) async throws -> CardRecord? {
        try await handle.transaction { database in
            // Every column but those a reissue never changes, from the record; then the time.
            var card = card
            card.updatedAt = time
            let update = database.update("cards")
            for (column, value) in try RecordCoding.columns(of: card) where !CardRecord.columnsFixedByReissue.contains(column) {
                update.set(SQLIdentifier(column), to: value)
            }
            guard
                let row = try await update.where("id", .equal, card.id).where("tenant_id", .equal, card.tenantID)
                    .where("status", .notEqual, CardStatus.closed.rawValue).returning("*").first()
            else { return nil }
            try await Self.audit(
                AuditChange("card.updated", target: "card", card.id, reason: changedFields.joined(separator: ", ")),
                tenantID: card.tenantID, at: time, in: database)
            return try Self.card(from: row)
        }
    }

    public func setCardStatus(id: String, tenantID: String, status: CardStatusChange, at time: Date) async throws -> CardRecord? {
        try await handle.transaction { database in
            var update = SQLQueryString(
                """
                UPDATE cards SET status = \(bind: status.to.rawValue), updated_at = \(bind: time.epochMilliseconds)
                WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID) AND status IN (
                """)
            for (index, from) in status.from.enumerated() {
                if index > 0 { update.appendInterpolation(unsafeRaw: ", ") }
                update.appendInterpolation(bind: from.rawValue)
            }
            update.appendInterpolation(unsafeRaw: ") RETURNING *")
            if let changed = try await database.raw(update).first() {
                try await Self.audit(
                    AuditChange(status.auditAction, target: "card", id), tenantID: tenantID, at: time, in: database)
                return try Self.card(from: changed)
            }
            // Already in that status (nothing changes, nothing is recorded) or no such card.
            return try await database.raw("SELECT * FROM cards WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID)")
                .first().map(Self.card(from:))
        }
    }

    // MARK: Attempts

    public func insertAttempt(_ attempt: ProvisioningAttemptRecord) async throws {
        try await attemptWriter.submit(attempt)
    }

    /// One multi-row INSERT for a group of attempts.
    static func insertAttempts(_ attempts: [ProvisioningAttemptRecord], handle: any DatabaseHandle) async throws {
        let rows = attempts.map { attempt -> any SQLExpression in
            let row: SQLQueryString = """
                (\(bind: attempt.id), \(bind: attempt.tenantID), \(bind: attempt.cardID), \(bind: attempt.wallet.rawValue),
                    \(bind: attempt.deviceType?.rawValue), \(bind: attempt.encryptionScheme?.rawValue),
                    \(bind: attempt.outcome.rawValue), \(bind: attempt.errorCode), \(bind: attempt.createdAt.epochMilliseconds))
                """
            return row
        }
        try await handle.write { database in
            try await database.raw(
                """
                INSERT INTO provisioning_attempts (id, tenant_id, card_id, wallet, device_type, encryption_scheme, outcome,
                    error_code, created_at)
                VALUES \(SQLList(rows))
                """
            ).run()
        }
    }

    public func attempts(cardID: String, tenantID: String, cursor: String?, limit: Int) async throws
        -> Page<ProvisioningAttemptRecord>
    {
        let rows = try await keysetRows(
            table: "provisioning_attempts", tenantID: tenantID, filters: [("card_id", cardID)], cursor: cursor, limit: limit)
        let attempts = try rows.map(Self.attempt(from:))
        return Self.page(attempts, limit: limit) { PageCursor(createdAt: $0.createdAt.epochMilliseconds, id: $0.id) }
    }

    // MARK: Mobile sessions and provision tokens

    public func insertMobileSession(_ session: MobileSessionRecord) async throws {
        try await handle.transaction { database in
            try await IdempotentEffect.record("session", id: session.tokenHash, in: database)
            try await database.raw(
                """
                INSERT INTO mobile_sessions (id, token_hash, tenant_id, customer_ref, expires_at, created_at)
                VALUES (\(bind: session.id), \(bind: session.tokenHash), \(bind: session.tenantID), \(bind: session.customerRef),
                    \(bind: session.expiresAt.epochMilliseconds), \(bind: session.createdAt.epochMilliseconds))
                """
            ).run()
            try await Self.audit(
                AuditChange(
                    "mobile_session.created", target: "mobile_session", session.id, reason: "customer \(session.customerRef)"),
                tenantID: session.tenantID, at: session.createdAt, in: database)
        }
    }

    public func deleteMobileSession(tokenHash: String, tenantID: String) async throws {
        try await handle.write { database in
            try await database.raw(
                "DELETE FROM mobile_sessions WHERE token_hash = \(bind: tokenHash) AND tenant_id = \(bind: tenantID)"
            ).run()
        }
    }

    public func deleteProvisionToken(tokenHash: String, tenantID: String) async throws {
        try await handle.write { database in
            try await database.raw(
                "DELETE FROM provision_tokens WHERE token_hash = \(bind: tokenHash) AND tenant_id = \(bind: tenantID)"
            ).run()
        }
    }

    public func mobileSession(tokenHash: String) async throws -> MobileSessionRecord? {
        try await handle.read { database in
            try await database.raw("SELECT * FROM mobile_sessions WHERE token_hash = \(bind: tokenHash)").first()
                .map(Self.mobileSession(from:))
        }
    }

    public func insertProvisionToken(_ token: ProvisionTokenRecord) async throws {
        try await handle.transaction { database in
            try await IdempotentEffect.record("provision", id: token.tokenHash, in: database)
            try await database.raw(
                """
                INSERT INTO provision_tokens (token_hash, tenant_id, card_id, wallet, expires_at, used_at, created_at)
                VALUES (\(bind: token.tokenHash), \(bind: token.tenantID), \(bind: token.cardID), \(bind: token.wallet.rawValue),
                    \(bind: token.expiresAt.epochMilliseconds), \(bind: token.usedAt?.epochMilliseconds),
                    \(bind: token.createdAt.epochMilliseconds))
                """
            ).run()
            try await Self.audit(
                AuditChange("provision_token.created", target: "card", token.cardID, reason: "wallet \(token.wallet.rawValue)"),
                tenantID: token.tenantID, at: token.createdAt, in: database)
        }
    }

    public func provisionToken(tokenHash: String) async throws -> ProvisionTokenRecord? {
        try await handle.read { database in
            try await database.raw("SELECT * FROM provision_tokens WHERE token_hash = \(bind: tokenHash)").first()
                .map(Self.provisionToken(from:))
        }
    }

    public func consumeProvisionToken(tokenHash: String, at time: Date) async throws -> ProvisionTokenRecord? {
        try await handle.write { database in
            try await database.raw(
                """
                UPDATE provision_tokens SET used_at = \(bind: time.epochMilliseconds)
                WHERE token_hash = \(bind: tokenHash) AND used_at IS NULL AND expires_at > \(bind: time.epochMilliseconds)
                RETURNING *
                """
            ).first().map(Self.provisionToken(from:))
        }
    }

    // MARK: Idempotency

    public func claimIdempotencyKey(scope: String, key: String, requestHash: String, lease: IdempotencyLease, at time: Date)
        async throws -> IdempotencyClaim
    {
        let inProgress = IdempotencyRecord.State.inProgress.rawValue
        let claimed: IdempotencyClaim? = try await handle.write { database in
            if try await database.raw(
                """
                INSERT INTO idempotency_keys (scope, idempotency_key, request_hash, state, lease_token, lease_expires_at, created_at)
                VALUES (\(bind: scope), \(bind: key), \(bind: requestHash), \(bind: inProgress), \(bind: lease.token),
                    \(bind: lease.expiresAt.epochMilliseconds), \(bind: time.epochMilliseconds))
                ON CONFLICT DO NOTHING RETURNING idempotency_key
                """
            ).first() != nil {
                return .claimed
            }
            // Take over a claim whose holder stopped renewing (crashed); only for the same request.
            let takenOver = try await database.raw(
                """
                UPDATE idempotency_keys SET lease_token = \(bind: lease.token), lease_expires_at = \(bind: lease.expiresAt.epochMilliseconds)
                WHERE scope = \(bind: scope) AND idempotency_key = \(bind: key) AND state = \(bind: inProgress)
                    AND request_hash = \(bind: requestHash) AND lease_expires_at < \(bind: time.epochMilliseconds)
                RETURNING effect_ref
                """
            ).first()
            return try takenOver.map { .tookOver(previousEffect: try $0.decode(column: "effect_ref", as: String?.self)) }
        }
        if let claimed { return claimed }
        guard let existing = try await idempotencyRecord(scope: scope, key: key) else {
            // Released between our insert and our read: claim again.
            return try await claimIdempotencyKey(scope: scope, key: key, requestHash: requestHash, lease: lease, at: time)
        }
        return .existing(existing)
    }

    public func renewIdempotencyLease(scope: String, key: String, token: String, until: Date) async throws -> Bool {
        try await handle.write { database in
            try await database.raw(
                """
                UPDATE idempotency_keys SET lease_expires_at = \(bind: until.epochMilliseconds)
                WHERE scope = \(bind: scope) AND idempotency_key = \(bind: key) AND lease_token = \(bind: token)
                    AND state = \(bind: IdempotencyRecord.State.inProgress.rawValue)
                RETURNING idempotency_key
                """
            ).first() != nil
        }
    }

    @discardableResult
    public func completeIdempotencyKey(scope: String, key: String, token: String, status: Int, body: String) async throws
        -> Bool
    {
        try await handle.write { database in
            try await database.raw(
                """
                UPDATE idempotency_keys SET state = \(bind: IdempotencyRecord.State.completed.rawValue),
                    response_status = \(bind: status), response_body = \(bind: body), lease_expires_at = NULL
                WHERE scope = \(bind: scope) AND idempotency_key = \(bind: key) AND lease_token = \(bind: token)
                    AND state = \(bind: IdempotencyRecord.State.inProgress.rawValue)
                RETURNING idempotency_key
                """
            ).first() != nil
        }
    }

    public func releaseIdempotencyKey(scope: String, key: String, token: String) async throws {
        try await handle.write { database in
            try await database.raw(
                """
                DELETE FROM idempotency_keys WHERE scope = \(bind: scope) AND idempotency_key = \(bind: key)
                    AND lease_token = \(bind: token) AND state = \(bind: IdempotencyRecord.State.inProgress.rawValue)
                """
            ).run()
        }
    }

    public func idempotencyRecord(scope: String, key: String) async throws -> IdempotencyRecord? {
        try await handle.read { database in
            try await database.raw(
                "SELECT * FROM idempotency_keys WHERE scope = \(bind: scope) AND idempotency_key = \(bind: key)"
            ).first().map(Self.idempotency(from:))
        }
    }

    public func purgeIdempotencyKeys(createdBefore cutoff: Date) async throws -> Int {
        try await handle.write { database in
            try await database.raw(
                "DELETE FROM idempotency_keys WHERE created_at < \(bind: cutoff.epochMilliseconds) RETURNING idempotency_key"
            ).all().count
        }
    }
}
