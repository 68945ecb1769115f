import Foundation
import ProvisioCore
import SQLKit

extension SQLProvisioStore: WebhookStore {
    public func insertWebhookEndpoint(_ endpoint: WebhookEndpointRecord) async throws {
        try await handle.transaction { database in
            try await IdempotentEffect.record("endpoint", id: endpoint.id, in: database)
            try await database.raw(
                """
                INSERT INTO webhook_endpoints (id, tenant_id, url, events, secret_vault_record, created_at)
                VALUES (\(bind: endpoint.id), \(bind: endpoint.tenantID), \(bind: endpoint.url),
                    \(bind: endpoint.events.joined(separator: ",")), \(bind: endpoint.secretVaultRecord),
                    \(bind: endpoint.createdAt.epochMilliseconds))
                """
            ).run()
            try await Self.audit(
                AuditChange("webhook_endpoint.created", target: "webhook_endpoint", endpoint.id),
                tenantID: endpoint.tenantID, at: endpoint.createdAt, in: database)
        }
    }

    public func rotateWebhookSecret(
        endpointID: String, tenantID: String, newSecretVaultRecord: String, previousExpiresAt: Date?, at time: Date
    ) async throws -> WebhookEndpointRecord? {
        try await handle.transaction { database in
            // The current secret becomes the previous one (or is dropped with no overlap).
            let previous: SQLQueryString =
                previousExpiresAt.map {
                    "previous_secret_vault_record = secret_vault_record, previous_secret_expires_at = \(bind: $0.epochMilliseconds)"
                } ?? "previous_secret_vault_record = NULL, previous_secret_expires_at = NULL"
            guard
                let row = try await database.raw(
                    """
                    UPDATE webhook_endpoints SET \(previous), secret_vault_record = \(bind: newSecretVaultRecord)
                    WHERE id = \(bind: endpointID) AND tenant_id = \(bind: tenantID) RETURNING *
                    """
                ).first()
            else { return nil }
            try await IdempotentEffect.record("endpoint_secret", id: endpointID, in: database)
            let overlap = previousExpiresAt.map { "previous secret signs until \($0.formatted(.iso8601))" } ?? "no overlap"
            try await Self.audit(
                AuditChange("webhook_endpoint.secret_rotated", target: "webhook_endpoint", endpointID, reason: overlap),
                tenantID: tenantID, at: time, in: database)
            return try Self.webhookEndpoint(from: row)
        }
    }

    public func webhookEndpoints(tenantID: String) async throws -> [WebhookEndpointRecord] {
        try await handle.read { database in
            try await database.raw(
                "SELECT * FROM webhook_endpoints WHERE tenant_id = \(bind: tenantID) ORDER BY created_at, id"
            ).all().map(Self.webhookEndpoint(from:))
        }
    }

    public func webhookEndpoint(id: String, tenantID: String) async throws -> WebhookEndpointRecord? {
        try await handle.read { database in
            try await database.raw(
                "SELECT * FROM webhook_endpoints WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID)"
            ).first().map(Self.webhookEndpoint(from:))
        }
    }

    public func enqueue(event: WebhookEventRecord, deliveries: [WebhookDeliveryRecord]) async throws {
        try await handle.transaction { database in
            try await IdempotentEffect.record("event", id: event.id, in: database)
            try await Self.insert(OutboxEntry(event: event, deliveries: deliveries), into: database)
        }
    }

    /// Writes an outbox entry inside the caller's transaction.
    static func insert(_ entry: OutboxEntry, into database: any SQLDatabase) async throws {
        let event = entry.event
        try await database.raw(
            """
            INSERT INTO webhook_events (id, tenant_id, type, payload, created_at)
            VALUES (\(bind: event.id), \(bind: event.tenantID), \(bind: event.type), \(bind: event.payload),
                \(bind: event.createdAt.epochMilliseconds))
            """
        ).run()
        for delivery in entry.deliveries {
            try await database.raw(
                """
                INSERT INTO webhook_deliveries (id, tenant_id, event_id, endpoint_id, state, attempt_count, next_attempt_at,
                last_response_status, last_error, created_at, updated_at)
                VALUES (\(bind: delivery.id), \(bind: delivery.tenantID), \(bind: delivery.eventID), \(bind: delivery.endpointID),
                \(bind: delivery.state.rawValue), \(bind: delivery.attemptCount), \(bind: delivery.nextAttemptAt.epochMilliseconds),
                \(bind: delivery.lastResponseStatus), \(bind: delivery.lastError), \(bind: delivery.createdAt.epochMilliseconds),
                \(bind: delivery.updatedAt.epochMilliseconds))
                """
            ).run()
        }
    }

    public func claimDueWebhookDeliveries(now: Date, leaseUntil: Date, limit: Int) async throws -> [DueWebhookDelivery] {
        // One statement: the inner SELECT picks candidates, the outer WHERE re-checks them, so
        // each row goes to one claimer. On PostgreSQL the candidates are locked with SKIP LOCKED,
        // so concurrent claimers take different rows instead of racing for the same ones (and
        // coming back short); SQLite's single writer already serialises claims.
        let skipLocked = handle.engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        let claimed = try await handle.write { database in
            try await database.raw(
                """
                UPDATE webhook_deliveries SET next_attempt_at = \(bind: leaseUntil.epochMilliseconds),
                    updated_at = \(bind: now.epochMilliseconds)
                WHERE id IN (
                    SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= \(bind: now.epochMilliseconds)
                    ORDER BY next_attempt_at, id LIMIT \(bind: limit)\(unsafeRaw: skipLocked))
                AND state = 'pending' AND next_attempt_at <= \(bind: now.epochMilliseconds)
                RETURNING *
                """
            ).all().map(Self.webhookDelivery(from:))
        }
        var due: [DueWebhookDelivery] = []
        for delivery in claimed {
            let (event, endpoint) = try await handle.read { database in
                let event = try await database.raw("SELECT * FROM webhook_events WHERE id = \(bind: delivery.eventID)").first()
                    .map(Self.webhookEvent(from:))
                let endpoint = try await database.raw("SELECT * FROM webhook_endpoints WHERE id = \(bind: delivery.endpointID)")
                    .first().map(Self.webhookEndpoint(from:))
                return (event, endpoint)
            }
            if let event, let endpoint { due.append(DueWebhookDelivery(delivery: delivery, event: event, endpoint: endpoint)) }
        }
        return due
    }

    public func recordWebhookAttempt(_ attempt: WebhookAttemptRecord, delivery: WebhookDeliveryRecord) async throws {
        try await handle.transaction { database in
            try await database.raw(
                """
                INSERT INTO webhook_attempts (id, delivery_id, attempted_at, response_status, error, duration_ms)
                VALUES (\(bind: attempt.id), \(bind: attempt.deliveryID), \(bind: attempt.attemptedAt.epochMilliseconds),
                    \(bind: attempt.responseStatus), \(bind: attempt.error), \(bind: attempt.durationMilliseconds))
                """
            ).run()
            try await database.raw(
                """
                UPDATE webhook_deliveries SET state = \(bind: delivery.state.rawValue), attempt_count = \(bind: delivery.attemptCount),
                    next_attempt_at = \(bind: delivery.nextAttemptAt.epochMilliseconds),
                    last_response_status = \(bind: delivery.lastResponseStatus), last_error = \(bind: delivery.lastError),
                    updated_at = \(bind: delivery.updatedAt.epochMilliseconds)
                WHERE id = \(bind: delivery.id)
                """
            ).run()
        }
    }

    public func webhookDeliveries(tenantID: String, endpointID: String?, cursor: String?, limit: Int) async throws
        -> Page<WebhookDeliveryRecord>
    {
        let rows = try await keysetRows(
            table: "webhook_deliveries", tenantID: tenantID, filters: endpointID.map { [("endpoint_id", $0)] } ?? [],
            cursor: cursor,
            limit: limit)
        return Self.page(try rows.map(Self.webhookDelivery(from:)), limit: limit) {
            PageCursor(createdAt: $0.createdAt.epochMilliseconds, id: $0.id)
        }
    }

    public func webhookDelivery(id: String, tenantID: String) async throws -> WebhookDeliveryRecord? {
        try await handle.read { database in
            try await database.raw("SELECT * FROM webhook_deliveries WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID)")
                .first().map(Self.webhookDelivery(from:))
        }
    }

    public func webhookEvent(id: String, tenantID: String) async throws -> WebhookEventRecord? {
        try await handle.read { database in
            try await database.raw("SELECT * FROM webhook_events WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID)")
                .first().map(Self.webhookEvent(from:))
        }
    }

    public func webhookAttempts(deliveryID: String) async throws -> [WebhookAttemptRecord] {
        try await handle.read { database in
            try await database.raw(
                "SELECT * FROM webhook_attempts WHERE delivery_id = \(bind: deliveryID) ORDER BY attempted_at, id"
            ).all().map(Self.webhookAttempt(from:))
        }
    }

    public func replayWebhookDelivery(id: String, tenantID: String, at time: Date) async throws -> WebhookDeliveryRecord? {
        try await handle.transaction { database in
            guard
                let row = try await database.raw(
                    """
                    UPDATE webhook_deliveries SET state = 'pending', attempt_count = 0,
                        next_attempt_at = \(bind: time.epochMilliseconds), updated_at = \(bind: time.epochMilliseconds)
                    WHERE id = \(bind: id) AND tenant_id = \(bind: tenantID) RETURNING *
                    """
                ).first()
            else { return nil }
            try await Self.audit(
                AuditChange("webhook_delivery.replayed", target: "webhook_delivery", id), tenantID: tenantID, at: time,
                in: database)
            return try Self.webhookDelivery(from: row)
        }
    }

    // MARK: Rows

    static func webhookEndpoint(from row: any SQLRow) throws -> WebhookEndpointRecord {
        WebhookEndpointRecord(
            id: try row.decode(column: "id", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            url: try row.decode(column: "url", as: String.self),
            events: try row.decode(column: "events", as: String.self).split(separator: ",").map(String.init),
            secretVaultRecord: try row.decode(column: "secret_vault_record", as: String.self),
            createdAt: try date(row, "created_at"),
            previousSecretVaultRecord: try row.decode(column: "previous_secret_vault_record", as: String?.self),
            previousSecretExpiresAt: try row.decode(column: "previous_secret_expires_at", as: Int64?.self)
                .map(Date.init(epochMilliseconds:)))
    }

    static func webhookEvent(from row: any SQLRow) throws -> WebhookEventRecord {
        WebhookEventRecord(
            id: try row.decode(column: "id", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            type: try row.decode(column: "type", as: String.self),
            payload: try row.decode(column: "payload", as: String.self),
            createdAt: try date(row, "created_at"))
    }

    static func webhookDelivery(from row: any SQLRow) throws -> WebhookDeliveryRecord {
        WebhookDeliveryRecord(
            id: try row.decode(column: "id", as: String.self),
            tenantID: try row.decode(column: "tenant_id", as: String.self),
            eventID: try row.decode(column: "event_id", as: String.self),
            endpointID: try row.decode(column: "endpoint_id", as: String.self),
            state: WebhookDeliveryRecord.State(rawValue: try row.decode(column: "state", as: String.self)) ?? .pending,
            attemptCount: try row.decode(column: "attempt_count", as: Int.self),
            nextAttemptAt: try date(row, "next_attempt_at"),
            lastResponseStatus: try row.decode(column: "last_response_status", as: Int?.self),
            lastError: try row.decode(column: "last_error", as: String?.self),
            createdAt: try date(row, "created_at"),
            updatedAt: try date(row, "updated_at"))
    }

    static func webhookAttempt(from row: any SQLRow) throws -> WebhookAttemptRecord {
        WebhookAttemptRecord(
            id: try row.decode(column: "id", as: String.self),
            deliveryID: try row.decode(column: "delivery_id", as: String.self),
            attemptedAt: try date(row, "attempted_at"),
            responseStatus: try row.decode(column: "response_status", as: Int?.self),
            error: try row.decode(column: "error", as: String?.self),
            durationMilliseconds: try row.decode(column: "duration_ms", as: Int.self))
    }
}
