import ProvisioAPI
import ProvisioCore

/// The app's view of its cards (`/v1/mobile/cards`): a mobile session sees its customer's
/// cards that may be provisioned now, a provision token its one card (if still eligible).
extension ProvisioAPIHandler {
    func listMobileCards(_ input: Operations.ListMobileCards.Input) async throws -> Operations.ListMobileCards.Output {
        let eligible = try await eligibleCards(for: try RequestScope.require().requirePrincipal())
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(data: eligible.map(Components.Schemas.MobileCard.init), nextCursor: nil))))
    }

    private func eligibleCards(for principal: Principal) async throws -> [CardRecord] {
        switch principal {
        case .mobileSession(let session):
            var all: [CardRecord] = []
            var cursor: String?
            repeat {
                let page = try await services.cards.cards(
                    tenantID: session.tenantID, customerRef: session.customerRef, cursor: cursor, limit: PageSize.maximum)
                all += page.items
                cursor = page.nextCursor
            } while cursor != nil
            return all.filter(services.cards.isEligible)
        case .provisionToken(let token, _):
            try Self.requireUnspent(token)
            let card = try await services.cards.card(id: token.cardID, tenantID: token.tenantID)
            return services.cards.isEligible(card) ? [card] : []
        case .apiKey, .network:
            throw ProvisioError(.wrongCredentialKind, "Mobile endpoints take a mobile session or provision token.")
        }
    }
}
