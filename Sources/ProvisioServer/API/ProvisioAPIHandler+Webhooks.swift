import Foundation
import ProvisioAPI
import ProvisioCore

/// Webhook endpoints, deliveries, attempts, replays and test events (issuer backend only).
extension ProvisioAPIHandler {
    func createWebhookEndpoint(_ input: Operations.CreateWebhookEndpoint.Input) async throws
        -> Operations.CreateWebhookEndpoint.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let (endpoint, secret) = try await services.webhooks.createEndpoint(
            tenantID: try Self.tenantID(), url: body.url, events: body.events.map(Self.eventType))
        return .created(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(Components.Schemas.WebhookEndpoint(endpoint, secret: secret))))
    }

    func listWebhookEndpoints(_ input: Operations.ListWebhookEndpoints.Input) async throws
        -> Operations.ListWebhookEndpoints.Output
    {
        let endpoints = try await services.webhooks.endpoints(tenantID: try Self.tenantID())
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(data: endpoints.map { Components.Schemas.WebhookEndpoint($0) }))))
    }

    func sendTestWebhook(_ input: Operations.SendTestWebhook.Input) async throws -> Operations.SendTestWebhook.Output {
        let event = try await services.webhooks.sendTestEvent(
            endpointID: try Self.pathID(input.path.id), tenantID: try Self.tenantID())
        return .accepted(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(id: event.id, _type: event.type, createdAt: event.createdAt))))
    }

    func listWebhookDeliveries(_ input: Operations.ListWebhookDeliveries.Input) async throws
        -> Operations.ListWebhookDeliveries.Output
    {
        let page = try await services.webhooks.deliveries(
            tenantID: try Self.tenantID(), endpointID: input.query.endpointId, cursor: input.query.cursor,
            limit: input.query.limit)
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(
                    .init(data: page.items.map { Components.Schemas.WebhookDelivery($0) }, nextCursor: page.nextCursor))))
    }

    func getWebhookDelivery(_ input: Operations.GetWebhookDelivery.Input) async throws
        -> Operations.GetWebhookDelivery.Output
    {
        let (delivery, attempts) = try await services.webhooks.delivery(
            id: try Self.pathID(input.path.id), tenantID: try Self.tenantID())
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(Components.Schemas.WebhookDelivery(delivery, attempts: attempts))))
    }

    func rotateWebhookSecret(_ input: Operations.RotateWebhookSecret.Input) async throws
        -> Operations.RotateWebhookSecret.Output
    {
        var overlap: Int?
        if case .json(let body) = input.body { overlap = body.overlapSeconds }
        let (endpoint, secret) = try await services.webhooks.rotateSecret(
            endpointID: try Self.pathID(input.path.id), tenantID: try Self.tenantID(), overlapSeconds: overlap)
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(Components.Schemas.WebhookEndpoint(endpoint, secret: secret))))
    }

    func replayWebhookDelivery(_ input: Operations.ReplayWebhookDelivery.Input) async throws
        -> Operations.ReplayWebhookDelivery.Output
    {
        let delivery = try await services.webhooks.replay(
            deliveryID: try Self.pathID(input.path.id), tenantID: try Self.tenantID())
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(Components.Schemas.WebhookDelivery(delivery))))
    }

    /// The event type's name, as `WebhookEventType` lists it (`*`: every event).
    static func eventType(_ event: Components.Schemas.CreateWebhookEndpointRequest.EventsPayloadPayload) -> String {
        switch event {
        case ._ast_: "*"
        case .token_created: "token.created"
        case .token_updated: "token.updated"
        case .token_activated: "token.activated"
        case .token_suspended: "token.suspended"
        case .token_resumed: "token.resumed"
        case .token_deleted: "token.deleted"
        case .token_otpRequested: "token.otp_requested"
        case .token_decisionRequested: "token.decision_requested"
        case .token_suspiciousActivity: "token.suspicious_activity"
        case .provisioning_declined: "provisioning.declined"
        case .webhook_test: "webhook.test"
        }
    }
}

extension Components.Schemas.WebhookEndpoint {
    /// `secret` only in the answer to creation: it is never shown again.
    init(_ endpoint: WebhookEndpointRecord, secret: String? = nil) {
        self.init(
            id: endpoint.id, url: endpoint.url, events: endpoint.events, secret: secret,
            previousSecretExpiresAt: endpoint.previousSecretExpiresAt, createdAt: endpoint.createdAt)
    }
}

extension Components.Schemas.WebhookDelivery {
    /// `next_attempt_at` only while the delivery is pending; `attempts` only where the
    /// operation documents them.
    init(_ delivery: WebhookDeliveryRecord, attempts: [WebhookAttemptRecord]? = nil) {
        let state: StatePayload
        switch delivery.state {
        case .pending: state = .pending
        case .succeeded: state = .succeeded
        case .failed: state = .failed
        }
        self.init(
            id: delivery.id, eventId: delivery.eventID, endpointId: delivery.endpointID, state: state,
            attemptCount: delivery.attemptCount, nextAttemptAt: delivery.state == .pending ? delivery.nextAttemptAt : nil,
            lastResponseStatus: delivery.lastResponseStatus, lastError: delivery.lastError, createdAt: delivery.createdAt,
            attempts: attempts?.map {
                Components.Schemas.WebhookAttempt(
                    attemptedAt: $0.attemptedAt, responseStatus: $0.responseStatus, error: $0.error,
                    durationMs: $0.durationMilliseconds)
            })
    }
}
