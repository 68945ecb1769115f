import Foundation
import Hummingbird
import ProvisioCore

/// The SDK's provisioning API (`Authorization: Bearer <mobile session | provision token>`),
/// not moved to generated handlers yet (`GET /v1/mobile/cards` has: ProvisioAPIHandler+Mobile).
/// A mobile session reaches only its customer's cards; a provision token only its card and
/// wallet, once.
struct MobileRoutes {
    let cards: CardService
    let provisioning: ProvisioningService
    let access: AccessService

    func register(on group: RouterGroup<ProvisioRequestContext>) {
        group.post("cards/:id/provisioning/apple-pay") { request, context in
            let body = try await JSONCoding.decode(ApplePayBody.self, from: request, context: context)
            let card = try await card(IssuerRoutes.cardID(context), for: try context.requirePrincipal(), wallet: .applePay)
            return try JSONCoding.response(ApplePayWire(try await provisioning.applePay(card: card, input: body.input)))
        }
        for wallet in [Wallet.googlePay, .samsungPay] {
            let path = wallet == .googlePay ? "google-pay" : "samsung-pay"
            group.post("cards/:id/provisioning/\(path)") { request, context in
                let body = try await JSONCoding.decode(PushProvisioningBody.self, from: request, context: context)
                let card = try await card(IssuerRoutes.cardID(context), for: try context.requirePrincipal(), wallet: wallet)
                return try JSONCoding.response(
                    try await provisioning.pushProvisioning(card: card, wallet: wallet, userAddress: body.userAddress))
            }
        }
    }

    /// The card if the principal may provision it; spends a provision token on the way.
    private func card(_ id: String, for principal: Principal, wallet: Wallet) async throws -> CardRecord {
        switch principal {
        case .mobileSession(let session):
            let card = try await cards.card(id: id, tenantID: session.tenantID)
            guard card.customerRef == session.customerRef else {
                throw ProvisioError(.cardNotFound, "No card with this id.")
            }
            return card
        case .provisionToken(let token, let hash):
            try Self.requireUnspent(token)
            guard token.cardID == id, token.wallet == wallet else {
                throw ProvisioError(.tokenScopeMismatch, "The provision token is for another card or wallet.")
            }
            try await access.consume(provisionTokenHash: hash)
            return try await cards.card(id: id, tenantID: token.tenantID)
        case .tenant, .network:
            throw ProvisioError(.wrongCredentialKind, "Mobile endpoints take a mobile session or provision token.")
        }
    }

    /// Spent tokens are let through authentication only so that an `Idempotency-Key` retry can
    /// replay the first answer; anything that reaches a route with one is refused here.
    static func requireUnspent(_ token: ProvisionTokenRecord) throws {
        guard token.usedAt == nil else {
            throw ProvisioError(.tokenAlreadyUsed, "The provision token was already used; request a new one.")
        }
    }
}
