import Foundation
import Hummingbird
import ProvisioCore

/// The issuer backend's API (`Authorization: Bearer <api key>`): cards, provisioning,
/// attempts, mobile sessions and provision tokens.
struct IssuerRoutes {
    let cards: CardService
    let provisioning: ProvisioningService
    let access: AccessService

    func register(on group: RouterGroup<ProvisioRequestContext>) {
        group.post("cards") { request, context in
            let body = try await JSONCoding.decode(CreateCardBody.self, from: request, context: context)
            let tenantID = try context.requirePrincipal().tenantID
            // A retry after a crash answers with the card the first attempt created.
            if let previous = IdempotentEffect.previous("card") {
                return try JSONCoding.response(CardWire(try await cards.card(id: previous, tenantID: tenantID)), status: .created)
            }
            let card = try await cards.create(body.newCard, tenantID: tenantID)
            return try JSONCoding.response(CardWire(card), status: .created)
        }
        group.get("cards") { request, context in
            let query = request.uri.queryParameters
            guard let customerRef = query.get("customer_ref") else {
                throw ProvisioError(.invalidParameter, "The query parameter customer_ref is required.")
            }
            let page = try await cards.cards(
                tenantID: try context.requirePrincipal().tenantID, customerRef: customerRef,
                cursor: query.get("cursor"), limit: try Self.limit(query.get("limit")))
            return try JSONCoding.response(ListWire(data: page.items.map(CardWire.init), nextCursor: page.nextCursor))
        }
        group.get("cards/:id") { _, context in
            let card = try await cards.card(id: try Self.cardID(context), tenantID: try context.requirePrincipal().tenantID)
            return try JSONCoding.response(CardWire(card))
        }
        group.post("cards/:id/close") { _, context in
            let card = try await cards.close(id: try Self.cardID(context), tenantID: try context.requirePrincipal().tenantID)
            return try JSONCoding.response(CardWire(card))
        }
        group.get("cards/:id/provisioning-attempts") { request, context in
            let query = request.uri.queryParameters
            let page = try await provisioning.attempts(
                cardID: try Self.cardID(context), tenantID: try context.requirePrincipal().tenantID,
                cursor: query.get("cursor"), limit: try Self.limit(query.get("limit")))
            return try JSONCoding.response(ListWire(data: page.items.map(AttemptWire.init), nextCursor: page.nextCursor))
        }
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
        group.post("mobile-sessions") { request, context in
            let body = try await JSONCoding.decode(MobileSessionBody.self, from: request, context: context)
            let (session, token) = try await access.createMobileSession(
                tenantID: try context.requirePrincipal().tenantID, customerRef: body.customerRef, lifetimeSeconds: body.ttlSeconds
            )
            return try JSONCoding.response(
                MobileSessionWire(token: token, customerRef: session.customerRef, expiresAt: session.expiresAt), status: .created)
        }
        group.post("provision-tokens") { request, context in
            let body = try await JSONCoding.decode(ProvisionTokenBody.self, from: request, context: context)
            let wallet = try Wallet(wireName: body.wallet)
            let card = try await cards.card(id: body.cardID, tenantID: try context.requirePrincipal().tenantID)
            try cards.requireEligible(card)
            let (record, token) = try await access.createProvisionToken(card: card, wallet: wallet)
            return try JSONCoding.response(
                ProvisionTokenWire(provisionToken: token, cardID: card.id, wallet: wallet.rawValue, expiresAt: record.expiresAt),
                status: .created)
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
