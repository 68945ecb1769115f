import Foundation
import HTTPTypes
import Hummingbird
import ProvisioCore

/// Webhook deliveries with their attempts, and replay (support and admins).
extension ConsoleRoutes {
    func deliveriesPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let signedIn = try Self.signedIn(context)
        let query = try Self.query(request)
        let page = try await services.webhooks.deliveries(
            tenantID: signedIn.tenantID, endpointID: query["endpoint_id"], cursor: query["cursor"], limit: 50)
        var values = Self.base("Webhook deliveries", signedIn)
        values["deliveries"] = page.items.map(ConsoleViews.delivery)
        values["canReplay"] = signedIn.role >= .support
        if let next = page.nextCursor { values["nextPage"] = "/console/webhook-deliveries?cursor=\(next)" }
        if query["done"] == "replay" { values["notice"] = "The delivery is pending again and will be sent shortly." }
        return pages.page("deliveries", values)
    }

    func deliveryPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let signedIn = try Self.signedIn(context)
        let (delivery, attempts) = try await services.webhooks.delivery(id: try Self.pathID(context), tenantID: signedIn.tenantID)
        var values = Self.base("Webhook delivery \(delivery.id)", signedIn)
        values["delivery"] = ConsoleViews.delivery(delivery)
        values["attempts"] = attempts.map(ConsoleViews.deliveryAttempt)
        values["canReplay"] = signedIn.role >= .support
        return pages.page("delivery", values)
    }

    func replay(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let (_, signedIn) = try await Self.form(request, context, role: .support, to: "replay webhooks")
        _ = try await services.webhooks.replay(deliveryID: try Self.pathID(context), tenantID: signedIn.tenantID)
        return ConsolePages.redirect("/console/webhook-deliveries?done=replay")
    }
}
