import Foundation
import Hummingbird
import ProvisioCore

/// The issuer backend's provisioning API (`Authorization: Bearer <api key>`), not moved to
/// generated handlers yet: the document's closed `encryption_scheme` enum would refuse a scheme
/// before an attempt is recorded, and would refuse the lower-case spelling accepted today.
/// Cards, attempts, mobile sessions and provision tokens have moved (ProvisioAPIHandler+Cards,
/// +Access).
struct IssuerRoutes {
    let cards: CardService
    let provisioning: ProvisioningService

    func register(on group: RouterGroup<ProvisioRequestContext>) {
        group.post("cards/:id/provisioning/apple-pay") { request, context in
            let body = try await JSONCoding.decode(ApplePayBody.self, from: request, context: context)
            let card = try await cards.card(id: try Self.cardID(context), tenantID: try context.requirePrincipal().tenantID)
            return try JSONCoding.response(ApplePayWire(try await provisioning.applePay(card: card, input: body.input)))
        }
        for wallet in [Wallet.googlePay, .samsungPay] {
            let path = wallet == .googlePay ? "google-pay" : "samsung-pay"
            group.post("cards/:id/provisioning/\(path)") { request, context in
                let body = try await JSONCoding.decode(PushProvisioningBody.self, from: request, context: context)
                let card = try await cards.card(id: try Self.cardID(context), tenantID: try context.requirePrincipal().tenantID)
                return try JSONCoding.response(
                    try await provisioning.pushProvisioning(card: card, wallet: wallet, userAddress: body.userAddress))
            }
        }
    }

    static func cardID(_ context: ProvisioRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), !id.isEmpty, id.count <= 64 else {
            throw ProvisioError(.cardNotFound, "No card with this id.")
        }
        return id
    }

    static func limit(_ text: String?) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text) else {
            throw ProvisioError(.invalidParameter, "limit must be an integer.")
        }
        return value
    }
}
