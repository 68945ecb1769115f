import Foundation
import ProvisioCore

/// Turns a domain event into an outbox entry: one stored event, one pending delivery per
/// subscribed endpoint. Delivery happens later, in `WebhookDeliveryWorker`, so publishing
/// never waits on an issuer's server and survives a restart.
public struct WebhookPublisher: Sendable {
    let store: any WebhookStore
    let clock: any TimeSource

    public init(store: any WebhookStore, clock: any TimeSource) {
        self.store = store
        self.clock = clock
    }

    /// Stores the event with one delivery to each of `endpoints` (a test event goes to one).
    @discardableResult
    func publish(tenantID: String, message: WebhookMessage, to endpoints: [WebhookEndpointRecord])
        async throws -> WebhookEventRecord
    {
        let entry = try entry(tenantID: tenantID, message: message, to: endpoints)
        try await store.enqueue(event: entry.event, deliveries: entry.deliveries)
        return entry.event
    }

    /// The event and its deliveries to every subscribed endpoint, not yet stored: the caller
    /// writes it in the transaction of the change it announces.
    func prepare(tenantID: String, message: WebhookMessage) async throws -> OutboxEntry {
        let subscribers = try await store.webhookEndpoints(tenantID: tenantID).filter { $0.subscribes(to: message.type) }
        return try entry(tenantID: tenantID, message: message, to: subscribers)
    }

    private func entry(tenantID: String, message: WebhookMessage, to endpoints: [WebhookEndpointRecord]) throws -> OutboxEntry {
        let now = clock.now()
        let event = WebhookEventRecord(
            id: RandomToken.identifier(prefix: "msg_"), tenantID: tenantID, type: message.type,
            payload: String(decoding: try message.body(at: now), as: UTF8.self), createdAt: now)
        let deliveries = endpoints.map {
            WebhookDeliveryRecord(
                id: RandomToken.identifier(prefix: "whd_"), tenantID: tenantID, eventID: event.id, endpointID: $0.id,
                state: .pending, attemptCount: 0, nextAttemptAt: now, lastResponseStatus: nil, lastError: nil,
                createdAt: now, updatedAt: now)
        }
        return OutboxEntry(event: event, deliveries: deliveries)
    }
}
