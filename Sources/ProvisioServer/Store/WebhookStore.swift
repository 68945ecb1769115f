import Foundation

/// The webhook outbox's persistence port; `SQLProvisioStore` implements it next to
/// `ProvisioStore`, and the conformance suite runs it on SQLite and PostgreSQL.
public protocol WebhookStore: Sendable {
    func insertWebhookEndpoint(_ endpoint: WebhookEndpointRecord) async throws
    func webhookEndpoints(tenantID: String) async throws -> [WebhookEndpointRecord]
    func webhookEndpoint(id: String, tenantID: String) async throws -> WebhookEndpointRecord?
    /// Makes `newSecretVaultRecord` the signing secret; the one before keeps signing until
    /// `previousExpiresAt` (nil: it stops at once). Nil when the tenant has no such endpoint.
    func rotateWebhookSecret(
        endpointID: String, tenantID: String, newSecretVaultRecord: String, previousExpiresAt: Date?, at time: Date
    ) async throws -> WebhookEndpointRecord?

    /// Stores the event and one pending delivery per endpoint, atomically.
    func enqueue(event: WebhookEventRecord, deliveries: [WebhookDeliveryRecord]) async throws

    /// Leases up to `limit` due deliveries until `leaseUntil`; of concurrent claimers (threads
    /// or server processes) each delivery goes to exactly one. A delivery whose sender dies is
    /// claimed again when the lease runs out.
    func claimDueWebhookDeliveries(now: Date, leaseUntil: Date, limit: Int) async throws -> [DueWebhookDelivery]

    /// Records one attempt and the delivery's new state together.
    func recordWebhookAttempt(_ attempt: WebhookAttemptRecord, delivery: WebhookDeliveryRecord) async throws

    func webhookDeliveries(tenantID: String, endpointID: String?, cursor: String?, limit: Int) async throws
        -> Page<WebhookDeliveryRecord>
    func webhookDelivery(id: String, tenantID: String) async throws -> WebhookDeliveryRecord?
    func webhookAttempts(deliveryID: String) async throws -> [WebhookAttemptRecord]
    /// Makes a delivery pending again, due now, with a fresh retry schedule.
    func replayWebhookDelivery(id: String, tenantID: String, at time: Date) async throws -> WebhookDeliveryRecord?
    func webhookEvent(id: String, tenantID: String) async throws -> WebhookEventRecord?
}
