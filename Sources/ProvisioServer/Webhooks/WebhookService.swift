import Foundation
import ProvisioCore
import ProvisioCrypto

/// The issuer-facing side of webhooks: endpoints (with their signing secret, shown once and
/// stored sealed in the vault), deliveries and their attempts, replays, and test events.
public struct WebhookService: Sendable {
    let store: any WebhookStore
    let vault: PANVault
    let publisher: WebhookPublisher
    let outbound: OutboundHTTPClient
    let clock: any TimeSource
    /// Endpoints per tenant: synchronous webhooks (decisions, one-time codes) may try several,
    /// and every event fans out to all of them.
    public static let maximumEndpointsPerTenant = 16

    public init(
        store: any WebhookStore, vault: PANVault, publisher: WebhookPublisher, outbound: OutboundHTTPClient,
        clock: any TimeSource
    ) {
        self.store = store
        self.vault = vault
        self.publisher = publisher
        self.outbound = outbound
        self.clock = clock
    }

    public func createEndpoint(tenantID: String, url: String, events: [String]) async throws
        -> (endpoint: WebhookEndpointRecord, secret: String)
    {
        // Checked now (scheme, credentials, literal addresses) and again, resolved, on every call.
        let url = try outbound.validate(url).url
        // Stored in clear and listed: never a card number.
        try CardService.refuseCardNumber(in: url, field: "url")
        // A retry after a crash answers with the endpoint the first attempt created.
        if let previous = IdempotentEffect.previous("endpoint"),
            let endpoint = try await store.webhookEndpoint(id: previous, tenantID: tenantID)
        {
            let secret = try vault.openSecret(
                VaultRecord(serialized: endpoint.secretVaultRecord),
                context: WebhookEndpointRecord.vaultContext(tenantID: tenantID, endpointID: endpoint.id))
            return (endpoint, String(decoding: secret, as: UTF8.self))
        }
        let events = try WebhookEventType.validate(events)
        guard try await store.webhookEndpoints(tenantID: tenantID).count < Self.maximumEndpointsPerTenant else {
            throw ProvisioError(
                .webhookEndpointLimitReached, "A tenant has at most \(Self.maximumEndpointsPerTenant) webhook endpoints.")
        }
        let id = RandomToken.identifier(prefix: "whe_")
        let secret = WebhookSigner.generateSecret()
        let sealed = try vault.seal(
            secret: Data(secret.utf8), context: WebhookEndpointRecord.vaultContext(tenantID: tenantID, endpointID: id))
        let endpoint = WebhookEndpointRecord(
            id: id, tenantID: tenantID, url: url, events: events, secretVaultRecord: sealed.serialized, createdAt: clock.now())
        try await store.insertWebhookEndpoint(endpoint)
        return (endpoint, secret)
    }

    public func endpoints(tenantID: String) async throws -> [WebhookEndpointRecord] {
        try await store.webhookEndpoints(tenantID: tenantID)
    }

    /// How long the previous secret may keep signing after a rotation: none, up to a week.
    public static let rotationOverlapRange = 0...(7 * 86_400)
    public static let defaultRotationOverlap = 86_400

    /// A new signing secret for the endpoint, returned this once. The previous secret keeps
    /// signing every webhook too (a second `v1,` signature) for `overlapSeconds`, so the
    /// receiver can switch without a gap.
    public func rotateSecret(endpointID: String, tenantID: String, overlapSeconds: Int?) async throws
        -> (endpoint: WebhookEndpointRecord, secret: String)
    {
        let overlap = overlapSeconds ?? Self.defaultRotationOverlap
        guard Self.rotationOverlapRange.contains(overlap) else {
            throw ProvisioError(
                .invalidParameter, "overlap_seconds must be between 0 and \(Self.rotationOverlapRange.upperBound).")
        }
        guard let endpoint = try await store.webhookEndpoint(id: endpointID, tenantID: tenantID) else {
            throw ProvisioError(.webhookEndpointNotFound, "No webhook endpoint with this id.")
        }
        let context = WebhookEndpointRecord.vaultContext(tenantID: tenantID, endpointID: endpointID)
        // A retry after a crash answers with the secret the first attempt made.
        if IdempotentEffect.previous("endpoint_secret") == endpointID {
            let secret = try vault.openSecret(VaultRecord(serialized: endpoint.secretVaultRecord), context: context)
            return (endpoint, String(decoding: secret, as: UTF8.self))
        }
        let secret = WebhookSigner.generateSecret()
        let sealed = try vault.seal(secret: Data(secret.utf8), context: context)
        let now = clock.now()
        guard
            let rotated = try await store.rotateWebhookSecret(
                endpointID: endpointID, tenantID: tenantID, newSecretVaultRecord: sealed.serialized,
                previousExpiresAt: overlap > 0 ? now.addingTimeInterval(TimeInterval(overlap)) : nil, at: now)
        else {
            throw ProvisioError(.webhookEndpointNotFound, "No webhook endpoint with this id.")
        }
        return (rotated, secret)
    }

    /// Sends a `webhook.test` event to the named endpoint only, whatever it subscribes to.
    public func sendTestEvent(endpointID: String, tenantID: String) async throws -> WebhookEventRecord {
        guard let endpoint = try await store.webhookEndpoint(id: endpointID, tenantID: tenantID) else {
            throw ProvisioError(.webhookEndpointNotFound, "No webhook endpoint with this id.")
        }
        if let previous = IdempotentEffect.previous("event"),
            let event = try await store.webhookEvent(id: previous, tenantID: tenantID)
        {
            return event
        }
        return try await publisher.publish(tenantID: tenantID, message: .test(endpointID: endpointID), to: [endpoint])
    }

    public func deliveries(tenantID: String, endpointID: String?, cursor: String?, limit: Int?) async throws
        -> Page<WebhookDeliveryRecord>
    {
        try await store.webhookDeliveries(
            tenantID: tenantID, endpointID: endpointID, cursor: cursor, limit: try PageSize.resolve(limit))
    }

    public func delivery(id: String, tenantID: String) async throws -> (WebhookDeliveryRecord, [WebhookAttemptRecord]) {
        guard let delivery = try await store.webhookDelivery(id: id, tenantID: tenantID) else {
            throw ProvisioError(.webhookDeliveryNotFound, "No webhook delivery with this id.")
        }
        return (delivery, try await store.webhookAttempts(deliveryID: id))
    }

    /// Events a replay must not send again: a one-time code is single-use and expires, and its
    /// stored event does not hold it.
    static let singleUseEventTypes: Set<String> = [OTPRelay.eventType]

    public func replay(deliveryID: String, tenantID: String) async throws -> WebhookDeliveryRecord {
        if let delivery = try await store.webhookDelivery(id: deliveryID, tenantID: tenantID),
            let event = try await store.webhookEvent(id: delivery.eventID, tenantID: tenantID),
            Self.singleUseEventTypes.contains(event.type)
        {
            throw ProvisioError(
                .webhookDeliveryNotReplayable,
                "A one-time code is single-use: its delivery cannot be replayed; the network asks for a new code.")
        }
        guard let delivery = try await store.replayWebhookDelivery(id: deliveryID, tenantID: tenantID, at: clock.now()) else {
            throw ProvisioError(.webhookDeliveryNotFound, "No webhook delivery with this id.")
        }
        return delivery
    }
}
