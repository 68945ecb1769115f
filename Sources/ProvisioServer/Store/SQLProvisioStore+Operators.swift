import Foundation
import ProvisioCore
import SQLKit

/// Operators, console sessions and support's searches.
extension SQLProvisioStore: OperatorStore {
    /// The most rows a console search answers.
    static let searchLimit = 50

    public func insertOperator(_ record: OperatorRecord) async throws {
        try await handle.transaction { database in
            try await database.raw(
                """
                INSERT INTO operators (id, tenant_id, email, role, password_hash, failed_sign_ins, created_at)
                VALUES (\(bind: record.id), \(bind: record.tenantID), \(bind: record.email), \(bind: record.role.rawValue),
                    \(bind: record.passwordHash), 0, \(bind: record.createdAt.epochMilliseconds))
                """
            ).run()
            try await Self.audit(
                AuditChange(
                    "operator.created", target: "operator", record.id, reason: "\(record.email) (\(record.role.rawValue))"),
                tenantID: record.tenantID, at: record.createdAt, in: database)
        }
    }

    public func operatorRecord(tenantID: String, email: String) async throws -> OperatorRecord? {
        try await handle.read { database in
            try await database.raw("SELECT * FROM operators WHERE tenant_id = \(bind: tenantID) AND email = \(bind: email)")
                .first().map(Self.operatorRecord(from:))
        }
    }

    public func operatorRecord(id: String, tenantID: String) async throws -> OperatorRecord? {
        try await handle.read { database in
            try await database.raw("SELECT * FROM operators WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID)").first()
                .map(Self.operatorRecord(from:))
        }
    }

    public func operators(tenantID: String) async throws -> [OperatorRecord] {
        try await handle.read { database in
            try await database.raw("SELECT * FROM operators WHERE tenant_id = \(bind: tenantID) ORDER BY created_at, id").all()
                .map(Self.operatorRecord(from:))
        }
    }

    public func recordFailedSignIn(operatorID: String, lockAfter: Int, lockedUntil: Date, at time: Date) async throws
        -> OperatorRecord?
    {
        let now = time.epochMilliseconds
        return try await handle.transaction { database in
            // One statement decides and counts, so parallel failures cannot all read "four" and
            // each add one: each sees the row the one before it left. A row still locked is not
            // matched (its lock is not extended); one whose lock ran out counts from one again.
            guard
                let row = try await database.raw(
                    """
                    UPDATE operators SET
                        failed_sign_ins = CASE WHEN locked_until IS NULL THEN failed_sign_ins + 1 ELSE 1 END,
                        locked_until = CASE
                            WHEN (CASE WHEN locked_until IS NULL THEN failed_sign_ins + 1 ELSE 1 END) >= \(bind: lockAfter)
                            THEN \(bind: lockedUntil.epochMilliseconds) ELSE NULL END
                    WHERE id = \(bind: operatorID) AND (locked_until IS NULL OR locked_until <= \(bind: now))
                    RETURNING *
                    """
                ).first()
            else { return nil }
            let record = try Self.operatorRecord(from: row)
            if record.failedSignIns == lockAfter {
                try await Self.audit(
                    AuditChange(
                        "operator.locked", target: "operator", record.id,
                        reason: "\(lockAfter) failed sign-ins; locked until \(lockedUntil.formatted(.iso8601))"),
                    tenantID: record.tenantID, at: time, in: database)
            }
            return record
        }
    }

    public func recordSignIn(operatorID: String, tenantID: String, at time: Date) async throws -> Bool {
        let now = time.epochMilliseconds
        return try await handle.transaction { database in
            let opened = try await database.raw(
                """
                UPDATE operators SET failed_sign_ins = 0, locked_until = NULL
                WHERE id = \(bind: operatorID) AND tenant_id = \(bind: tenantID) AND disabled_at IS NULL
                    AND (locked_until IS NULL OR locked_until <= \(bind: now))
                RETURNING id
                """
            ).first()
            guard opened != nil else { return false }
            try await Self.audit(
                AuditChange("operator.signed_in", target: "operator", operatorID), tenantID: tenantID, at: time, in: database)
            return true
        }
    }

    public func disableOperator(id: String, tenantID: String, at time: Date) async throws -> OperatorRecord? {
        try await handle.transaction { database in
            guard
                let row = try await database.raw(
                    """
                    UPDATE operators SET disabled_at = \(bind: time.epochMilliseconds)
                    WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID) AND disabled_at IS NULL RETURNING *
                    """
                ).first()
            else {
                return try await database.raw("SELECT * FROM operators WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID)")
                    .first().map(Self.operatorRecord(from:))
            }
            try await database.raw("DELETE FROM console_sessions WHERE operator_id = \(bind: id)").run()
            try await Self.audit(
                AuditChange("operator.disabled", target: "operator", id), tenantID: tenantID, at: time, in: database)
            return try Self.operatorRecord(from: row)
        }
    }

    public func insertConsoleSession(_ session: ConsoleSessionRecord) async throws {
        try await handle.write { database in
            try await database.raw(
                """
                INSERT INTO console_sessions (token_hash, operator_id, tenant_id, created_at, expires_at, last_seen_at)
                VALUES (\(bind: session.tokenHash), \(bind: session.operatorID), \(bind: session.tenantID),
                    \(bind: session.createdAt.epochMilliseconds), \(bind: session.expiresAt.epochMilliseconds),
                    \(bind: session.lastSeenAt.epochMilliseconds))
                """
            ).run()
        }
    }

    public func consoleSession(tokenHash: String) async throws -> ConsoleSessionRecord? {
        try await handle.read { database in
            try await database.raw("SELECT * FROM console_sessions WHERE token_hash = \(bind: tokenHash)").first().map { row in
                ConsoleSessionRecord(
                    tokenHash: try row.decode(column: "token_hash", as: String.self),
                    operatorID: try row.decode(column: "operator_id", as: String.self),
                    tenantID: try row.decode(column: "tenant_id", as: String.self),
                    createdAt: try Self.date(row, "created_at"), expiresAt: try Self.date(row, "expires_at"),
                    lastSeenAt: try Self.date(row, "last_seen_at"))
            }
        }
    }

    public func touchConsoleSession(tokenHash: String, at time: Date) async throws {
        try await handle.write { database in
            try await database.raw(
                "UPDATE console_sessions SET last_seen_at = \(bind: time.epochMilliseconds) WHERE token_hash = \(bind: tokenHash)"
            ).run()
        }
    }

    public func deleteConsoleSession(tokenHash: String) async throws {
        try await handle.write { database in
            try await database.raw("DELETE FROM console_sessions WHERE token_hash = \(bind: tokenHash)").run()
        }
    }

    public func searchCards(tenantID: String, _ search: CardSearch) async throws -> [CardRecord] {
        let filters: [(String, String?)] = [("id", search.cardID), ("customer_ref", search.customerRef), ("last4", search.last4)]
        return try await handle.read { database in
            var query = SQLQueryString("SELECT * FROM cards WHERE tenant_id = \(bind: tenantID)")
            for case (let column, let value?) in filters {
                query.appendInterpolation(unsafeRaw: " AND \(column) = ")
                query.appendInterpolation(bind: value)
            }
            query.appendInterpolation(unsafeRaw: " ORDER BY created_at DESC, id DESC LIMIT \(Self.searchLimit)")
            return try await database.raw(query).all().map(Self.card(from:))
        }
    }

    static func operatorRecord(from row: any SQLRow) throws -> OperatorRecord {
        guard let role = OperatorRole(rawValue: try row.decode(column: "role", as: String.self)) else {
            throw ProvisioError(.internalError, "An operator row holds an unknown role.")
        }
        return OperatorRecord(
            id: try row.decode(column: "id", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            email: try row.decode(column: "email", as: String.self), role: role,
            passwordHash: try row.decode(column: "password_hash", as: String.self),
            failedSignIns: try row.decode(column: "failed_sign_ins", as: Int.self),
            lockedUntil: try row.decode(column: "locked_until", as: Int64?.self).map(Date.init(epochMilliseconds:)),
            disabledAt: try row.decode(column: "disabled_at", as: Int64?.self).map(Date.init(epochMilliseconds:)),
            createdAt: try date(row, "created_at"))
    }
}
