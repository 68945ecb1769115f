import Foundation
import ProvisioCore
import SQLKit

extension SQLProvisioStore: TokenChangeStore {
    public func replaceCardNumber(_ card: CardRecord, at time: Date) async throws -> CardRecord? {
        try await handle.transaction { database in
            guard
                let row = try await database.raw(
                    """
                    UPDATE cards SET pan_vault_record = \(bind: card.panVaultRecord), last4 = \(bind: card.last4),
                        pan_fingerprint = \(bind: card.panFingerprint), expiry_month = \(bind: card.expiryMonth),
                        expiry_year = \(bind: card.expiryYear), updated_at = \(bind: time.epochMilliseconds)
                    WHERE id = \(bind: card.id) AND tenant_id = \(bind: card.tenantID)
                        AND status <> \(bind: CardStatus.closed.rawValue)
                    RETURNING *
                    """
                ).first()
            else { return nil }
            try await IdempotentEffect.record("card_replacement", id: card.id, in: database)
            try await Self.audit(
                AuditChange("card.replaced", target: "card", card.id, reason: "number, expiry"), tenantID: card.tenantID,
                at: time, in: database)
            return try Self.card(from: row)
        }
    }

    public func openCardID(panFingerprint: String, tenantID: String, excluding cardID: String) async throws -> String? {
        try await handle.read { database in
            try await database.raw(
                """
                SELECT id FROM cards WHERE tenant_id = \(bind: tenantID) AND pan_fingerprint = \(bind: panFingerprint)
                    AND id <> \(bind: cardID) AND status <> \(bind: CardStatus.closed.rawValue)
                LIMIT 1
                """
            ).first().map { try $0.decode(column: "id", as: String.self) }
        }
    }

    public func recordTokenChange(_ delivery: TokenChangeDeliveryRecord, audit: AuditChange?) async throws {
        try await handle.transaction { database in
            try await database.raw(
                """
                DELETE FROM token_change_deliveries WHERE token_id = \(bind: delivery.tokenID)
                    AND kind = \(bind: delivery.kind.rawValue) AND state = \(bind: TokenChangeDeliveryRecord.State.pending.rawValue)
                """
            ).run()
            try await database.insert(into: "token_change_deliveries").model(delivery, with: RecordCoding.encoder).run()
            if let audit { try await Self.audit(audit, tenantID: delivery.tenantID, at: delivery.updatedAt, in: database) }
        }
    }

    public func completeTokenChanges(tokenID: String, kind: TokenChangeDeliveryRecord.Kind, at time: Date) async throws {
        try await handle.write { database in
            try await database.raw(
                """
                UPDATE token_change_deliveries SET state = \(bind: TokenChangeDeliveryRecord.State.delivered.rawValue),
                    updated_at = \(bind: time.epochMilliseconds)
                WHERE token_id = \(bind: tokenID) AND kind = \(bind: kind.rawValue)
                    AND state = \(bind: TokenChangeDeliveryRecord.State.pending.rawValue)
                """
            ).run()
        }
    }

    public func claimDueTokenChanges(now: Date, leaseUntil: Date, limit: Int) async throws -> [TokenChangeDeliveryRecord] {
        // As the webhook outbox claims: one statement, the candidates re-checked, locked with
        // SKIP LOCKED on PostgreSQL so concurrent workers take different rows.
        let skipLocked = handle.engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        return try await handle.write { database in
            try await database.raw(
                """
                UPDATE token_change_deliveries SET next_attempt_at = \(bind: leaseUntil.epochMilliseconds),
                    updated_at = \(bind: now.epochMilliseconds)
                WHERE id IN (
                    SELECT id FROM token_change_deliveries WHERE state = 'pending'
                        AND next_attempt_at <= \(bind: now.epochMilliseconds)
                    ORDER BY next_attempt_at, id LIMIT \(bind: limit)\(unsafeRaw: skipLocked))
                AND state = 'pending' AND next_attempt_at <= \(bind: now.epochMilliseconds)
                RETURNING *
                """
            ).all().map { try $0.decode(record: TokenChangeDeliveryRecord.self) }
        }
    }

    public func updateTokenChange(_ delivery: TokenChangeDeliveryRecord, audit: AuditChange?) async throws {
        try await handle.transaction { database in
            try await database.raw(
                """
                UPDATE token_change_deliveries SET state = \(bind: delivery.state.rawValue),
                    attempt_count = \(bind: delivery.attemptCount),
                    next_attempt_at = \(bind: delivery.nextAttemptAt.epochMilliseconds),
                    last_error_code = \(bind: delivery.lastErrorCode), updated_at = \(bind: delivery.updatedAt.epochMilliseconds)
                WHERE id = \(bind: delivery.id)
                """
            ).run()
            if let audit { try await Self.audit(audit, tenantID: delivery.tenantID, at: delivery.updatedAt, in: database) }
        }
    }

    public func tokenChanges(tokenID: String) async throws -> [TokenChangeDeliveryRecord] {
        try await handle.read { database in
            try await database.raw(
                "SELECT * FROM token_change_deliveries WHERE token_id = \(bind: tokenID) ORDER BY created_at, id"
            ).all().map { try $0.decode(record: TokenChangeDeliveryRecord.self) }
        }
    }
}
