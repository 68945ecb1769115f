import Foundation
import ProvisioCore
import SQLKit

extension SQLProvisioStore: TokenStore {
    public func insertNetworkCredential(keyHash: String, tenantID: String, retiringOthersAt: Date?, at time: Date)
        async throws
    {
        try await handle.transaction { database in
            if let retiringOthersAt {
                let retired = try await database.raw(
                    """
                    UPDATE network_credentials SET expires_at = \(bind: retiringOthersAt.epochMilliseconds)
                    WHERE tenant_id = \(bind: tenantID)
                        AND (expires_at IS NULL OR expires_at > \(bind: retiringOthersAt.epochMilliseconds))
                    RETURNING key_hash
                    """
                ).all()
                for row in retired {
                    let hash = try row.decode(column: "key_hash", as: String.self)
                    try await Self.audit(
                        AuditChange(
                            "network_key.retiring", target: "network_key", String(hash.prefix(12)),
                            reason: "works until \(retiringOthersAt.formatted(.iso8601))"),
                        tenantID: tenantID, at: time, in: database)
                }
            }
            try await IdempotentEffect.record("network_key", id: keyHash, in: database)
            try await database.raw(
                """
                INSERT INTO network_credentials (key_hash, tenant_id, created_at)
                VALUES (\(bind: keyHash), \(bind: tenantID), \(bind: time.epochMilliseconds))
                """
            ).run()
            // The hash's first 12 digits name the key in the log without being usable.
            try await Self.audit(
                AuditChange("network_key.created", target: "network_key", String(keyHash.prefix(12))), tenantID: tenantID,
                at: time, in: database)
        }
    }

    public func deleteNetworkCredential(keyHash: String, tenantID: String) async throws {
        try await handle.write { database in
            try await database.raw(
                "DELETE FROM network_credentials WHERE key_hash = \(bind: keyHash) AND tenant_id = \(bind: tenantID)"
            ).run()
        }
    }

    public func tenantID(networkKeyHash: String, at time: Date) async throws -> String? {
        try await handle.read { database in
            try await database.raw(
                """
                SELECT tenant_id FROM network_credentials WHERE key_hash = \(bind: networkKeyHash)
                    AND (expires_at IS NULL OR expires_at > \(bind: time.epochMilliseconds))
                """
            ).first().map { try $0.decode(column: "tenant_id", as: String.self) }
        }
    }

    public func card(panFingerprint: String, tenantID: String) async throws -> CardRecord? {
        try await handle.read { database in
            try await database.raw(
                """
                SELECT * FROM cards WHERE tenant_id = \(bind: tenantID) AND pan_fingerprint = \(bind: panFingerprint)
                ORDER BY created_at DESC, id DESC LIMIT 1
                """
            ).first().map(Self.card(from:))
        }
    }

    public func insertToken(_ token: TokenRecord, events: [TokenEventRecord], outbox: [OutboxEntry]) async throws {
        // With the MDES listener's answer when it defers (`PendingWrites`): nothing reads the
        // token back in the same request.
        try await deferrableTransaction { database in
            try await database.raw(
                """
                INSERT INTO tokens (id, tenant_id, card_id, wallet, device_type, network_token_ref, device_account_identifier,
                    token_last4, state, network_state, decision, decision_reasons, created_at, updated_at)
                VALUES (\(bind: token.id), \(bind: token.tenantID), \(bind: token.cardID), \(bind: token.wallet.rawValue),
                    \(bind: token.deviceType?.rawValue), \(bind: token.networkTokenRef), \(bind: token.deviceAccountIdentifier),
                    \(bind: token.tokenLast4), \(bind: token.state.rawValue), \(bind: token.networkState),
                    \(bind: token.decision.rawValue), \(bind: token.decisionReasons.joined(separator: ",")),
                    \(bind: token.createdAt.epochMilliseconds), \(bind: token.updatedAt.epochMilliseconds))
                """
            ).run()
            for event in events {
                try await Self.insert(event, into: database)
                try await Self.audit(Self.auditChange(of: event), tenantID: token.tenantID, at: event.createdAt, in: database)
            }
            for entry in outbox { try await Self.insert(entry, into: database) }
        }
    }

    public func token(id: String, tenantID: String) async throws -> TokenRecord? {
        try await handle.read { database in
            try await database.raw("SELECT * FROM tokens WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID)").first()
                .map(Self.token(from:))
        }
    }

    public func token(networkTokenRef: String, tenantID: String) async throws -> TokenRecord? {
        try await handle.read { database in
            try await database.raw(
                "SELECT * FROM tokens WHERE network_token_ref = \(bind: networkTokenRef) AND tenant_id = \(bind: tenantID)"
            ).first().map(Self.token(from:))
        }
    }

    public func tokens(matching search: TokenSearch, tenantID: String, cursor: String?, limit: Int, newestFirst: Bool)
        async throws -> Page<TokenRecord>
    {
        let after = try cursor.map(PageCursor.init(encoded:))
        let (beyond, order) = newestFirst ? ("<", "DESC") : (">", "ASC")
        let rows = try await handle.read { database in
            var query = SQLQueryString("SELECT * FROM tokens WHERE tenant_id = \(bind: tenantID)")
            let filters: [(String, String?)] = [
                ("card_id", search.cardID), ("device_account_identifier", search.deviceAccountIdentifier),
                ("network_token_ref", search.networkTokenRef), ("state", search.state?.rawValue),
            ]
            for case (let column, let value?) in filters {
                query.appendInterpolation(unsafeRaw: " AND \(column) = ")
                query.appendInterpolation(bind: value)
            }
            // The card's fields through a subquery (on the cards' own indexes), so that every
            // column here is the token's and the keyset below stays unambiguous.
            if let customerRef = search.customerRef {
                query.appendInterpolation(unsafeRaw: " AND card_id IN (SELECT id FROM cards WHERE tenant_id = ")
                query.appendInterpolation(bind: tenantID)
                query.appendInterpolation(unsafeRaw: " AND customer_ref = ")
                query.appendInterpolation(bind: customerRef)
                query.appendInterpolation(unsafeRaw: ")")
            }
            if let last4 = search.last4 {
                query.appendInterpolation(unsafeRaw: " AND (token_last4 = ")
                query.appendInterpolation(bind: last4)
                query.appendInterpolation(unsafeRaw: " OR card_id IN (SELECT id FROM cards WHERE tenant_id = ")
                query.appendInterpolation(bind: tenantID)
                query.appendInterpolation(unsafeRaw: " AND last4 = ")
                query.appendInterpolation(bind: last4)
                query.appendInterpolation(unsafeRaw: "))")
            }
            if let after { Self.appendKeyset(to: &query, beyond: beyond, createdAt: after.createdAt, id: after.id) }
            query.appendInterpolation(unsafeRaw: " ORDER BY created_at \(order), id \(order) LIMIT ")
            query.appendInterpolation(bind: limit + 1)
            return try await database.raw(query).all()
        }
        return Self.page(try rows.map(Self.token(from:)), limit: limit) {
            PageCursor(createdAt: $0.createdAt.epochMilliseconds, id: $0.id)
        }
    }

    public func updateToken(
        _ updated: TokenRecord, expectedState: TokenState, event: TokenEventRecord, outbox: [OutboxEntry]
    ) async throws -> TokenRecord? {
        try await handle.transaction { database in
            guard
                let row = try await database.raw(
                    """
                    UPDATE tokens SET state = \(bind: updated.state.rawValue), network_state = \(bind: updated.networkState),
                        updated_at = \(bind: updated.updatedAt.epochMilliseconds)
                    WHERE id = \(bind: updated.id) AND tenant_id = \(bind: updated.tenantID) AND state = \(bind: expectedState.rawValue)
                    RETURNING *
                    """
                ).first()
            else { return nil }
            try await Self.insert(event, into: database)
            try await Self.audit(Self.auditChange(of: event), tenantID: updated.tenantID, at: event.createdAt, in: database)
            for entry in outbox { try await Self.insert(entry, into: database) }
            try await IdempotentEffect.record("token", id: updated.id, in: database)
            return try Self.token(from: row)
        }
    }

    public func updateTokenDetails(_ updated: TokenRecord, change: AuditChange, outbox: [OutboxEntry]) async throws
        -> TokenRecord?
    {
        try await handle.transaction { database in
            guard
                let row = try await database.raw(
                    """
                    UPDATE tokens SET token_last4 = \(bind: updated.tokenLast4),
                        token_expiry_month = \(bind: updated.tokenExpiryMonth),
                        token_expiry_year = \(bind: updated.tokenExpiryYear),
                        updated_at = \(bind: updated.updatedAt.epochMilliseconds)
                    WHERE id = \(bind: updated.id) AND tenant_id = \(bind: updated.tenantID)
                    RETURNING *
                    """
                ).first()
            else { return nil }
            try await Self.audit(change, tenantID: updated.tenantID, at: updated.updatedAt, in: database)
            for entry in outbox { try await Self.insert(entry, into: database) }
            return try Self.token(from: row)
        }
    }

    public func appendAudit(_ change: AuditChange, tenantID: String, at time: Date, outbox: [OutboxEntry]) async throws {
        try await handle.transaction { database in
            try await Self.audit(change, tenantID: tenantID, at: time, in: database)
            for entry in outbox { try await Self.insert(entry, into: database) }
        }
    }

    public func tokenEvents(tokenID: String) async throws -> [TokenEventRecord] {
        try await handle.read { database in
            try await database.raw("SELECT * FROM token_events WHERE token_id = \(bind: tokenID) ORDER BY ordinal").all()
                .map(Self.tokenEvent(from:))
        }
    }

    // MARK: Rows

    /// Appends with the next ordinal for the token; the unique (token_id, ordinal) index makes
    /// a concurrent second append fail rather than interleave.
    static func insert(_ event: TokenEventRecord, into database: any SQLDatabase) async throws {
        try await database.raw(
            """
            INSERT INTO token_events (id, token_id, tenant_id, type, from_state, to_state, actor, reason_code, ordinal, created_at)
            SELECT \(bind: event.id), \(bind: event.tokenID), \(bind: event.tenantID), \(bind: event.type),
                \(bind: event.fromState?.rawValue), \(bind: event.toState.rawValue), \(bind: event.actor.rawValue),
                \(bind: event.reasonCode), COALESCE(MAX(ordinal), -1) + 1, \(bind: event.createdAt.epochMilliseconds)
            FROM token_events WHERE token_id = \(bind: event.tokenID)
            """
        ).run()
    }

    /// A token's history entry as an audit line: its type (`token.suspended`, …) and reason.
    static func auditChange(of event: TokenEventRecord) -> AuditChange {
        AuditChange(event.type, target: "token", event.tokenID, reason: event.reasonCode)
    }

    static func token(from row: any SQLRow) throws -> TokenRecord {
        TokenRecord(
            id: try row.decode(column: "id", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            cardID: try row.decode(column: "card_id", as: String.self),
            wallet: try Wallet(wireName: try row.decode(column: "wallet", as: String.self)),
            deviceType: try row.decode(column: "device_type", as: String?.self).flatMap(DeviceType.init(rawValue:)),
            networkTokenRef: try row.decode(column: "network_token_ref", as: String.self),
            deviceAccountIdentifier: try row.decode(column: "device_account_identifier", as: String?.self),
            tokenLast4: try row.decode(column: "token_last4", as: String?.self),
            tokenExpiryMonth: try row.decode(column: "token_expiry_month", as: Int?.self),
            tokenExpiryYear: try row.decode(column: "token_expiry_year", as: Int?.self),
            state: TokenState(rawValue: try row.decode(column: "state", as: String.self)) ?? .requested,
            networkState: try row.decode(column: "network_state", as: String?.self),
            decision: DecisionOutcome(rawValue: try row.decode(column: "decision", as: String.self)) ?? .decline,
            decisionReasons: try row.decode(column: "decision_reasons", as: String.self).split(separator: ",").map(String.init),
            createdAt: try date(row, "created_at"),
            updatedAt: try date(row, "updated_at"))
    }

    static func tokenEvent(from row: any SQLRow) throws -> TokenEventRecord {
        TokenEventRecord(
            id: try row.decode(column: "id", as: String.self),
            tokenID: try row.decode(column: "token_id", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            type: try row.decode(column: "type", as: String.self),
            fromState: try row.decode(column: "from_state", as: String?.self).flatMap(TokenState.init(rawValue:)),
            toState: TokenState(rawValue: try row.decode(column: "to_state", as: String.self)) ?? .requested,
            actor: TokenActor(rawValue: try row.decode(column: "actor", as: String.self)) ?? .network,
            reasonCode: try row.decode(column: "reason_code", as: String?.self),
            createdAt: try date(row, "created_at"))
    }
}
