import Foundation
import Hummingbird
import ProvisioCore

/// Webhook endpoints, deliveries, attempts, replays and test events (issuer backend only).
struct WebhookRoutes {
    let webhooks: WebhookService

    func register(on group: RouterGroup<ProvisioRequestContext>) {
        group.post("webhook-endpoints") { request, context in
            let body = try await JSONCoding.decode(CreateWebhookEndpointBody.self, from: request, context: context)
            let (endpoint, secret) = try await webhooks.createEndpoint(
                tenantID: try context.requirePrincipal().tenantID, url: body.url, events: body.events)
            return try JSONCoding.response(WebhookEndpointWire(endpoint, secret: secret), status: .created)
        }
        group.get("webhook-endpoints") { _, context in
            let endpoints = try await webhooks.endpoints(tenantID: try context.requirePrincipal().tenantID)
            return try JSONCoding.response(ListWire(data: endpoints.map { WebhookEndpointWire($0) }, nextCursor: nil))
        }
        group.post("webhook-endpoints/:id/test") { _, context in
            let event = try await webhooks.sendTestEvent(
                endpointID: try Self.id(context), tenantID: try context.requirePrincipal().tenantID)
            return try JSONCoding.response(
                WebhookEventWire(id: event.id, type: event.type, createdAt: event.createdAt), status: .accepted)
        }
        group.get("webhook-deliveries") { request, context in
            let query = request.uri.queryParameters
            let page = try await webhooks.deliveries(
                tenantID: try context.requirePrincipal().tenantID, endpointID: query.get("endpoint_id"),
                cursor: query.get("cursor"), limit: try IssuerRoutes.limit(query.get("limit")))
            return try JSONCoding.response(
                ListWire(data: page.items.map { WebhookDeliveryWire($0) }, nextCursor: page.nextCursor))
        }
        group.get("webhook-deliveries/:id") { _, context in
            let (delivery, attempts) = try await webhooks.delivery(
                id: try Self.id(context), tenantID: try context.requirePrincipal().tenantID)
            return try JSONCoding.response(WebhookDeliveryWire(delivery, attempts: attempts))
        }
        group.post("webhook-deliveries/:id/replay") { _, context in
            let delivery = try await webhooks.replay(
                deliveryID: try Self.id(context), tenantID: try context.requirePrincipal().tenantID)
            return try JSONCoding.response(WebhookDeliveryWire(delivery))
        }
    }

    static func id(_ context: ProvisioRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), !id.isEmpty, id.count <= 64 else {
            throw ProvisioError(.invalidParameter, "The id in the path is not valid.")
        }
        return id
    }
}
