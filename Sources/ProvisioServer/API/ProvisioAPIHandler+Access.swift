import ProvisioAPI
import ProvisioCore

/// Credentials the issuer's backend hands its app: mobile sessions (a customer's cards) and
/// single-use provision tokens (one card, one wallet). Each secret is in the answer once.
extension ProvisioAPIHandler {
    func createMobileSession(_ input: Operations.CreateMobileSession.Input) async throws
        -> Operations.CreateMobileSession.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let (session, token) = try await services.access.createMobileSession(
            tenantID: try Self.tenantID(), customerRef: body.customerRef, lifetimeSeconds: body.ttlSeconds)
        return .created(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(
                    .init(id: session.id, token: token, customerRef: session.customerRef, expiresAt: session.expiresAt))))
    }

    func revokeMobileSession(_ input: Operations.RevokeMobileSession.Input) async throws
        -> Operations.RevokeMobileSession.Output
    {
        try await services.access.revokeMobileSession(id: try Self.pathID(input.path.id), tenantID: try Self.tenantID())
        return .noContent(.init(headers: .init(xRequestId: try Self.requestID())))
    }

    func revokeCustomerMobileSessions(_ input: Operations.RevokeCustomerMobileSessions.Input) async throws
        -> Operations.RevokeCustomerMobileSessions.Output
    {
        let count = try await services.access.revokeMobileSessions(
            customerRef: input.query.customerRef, tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(revoked: count))))
    }

    func createProvisionToken(_ input: Operations.CreateProvisionToken.Input) async throws
        -> Operations.CreateProvisionToken.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let wallet = Wallet(body.wallet)
        let card = try await services.cards.card(id: body.cardId, tenantID: try Self.tenantID())
        try services.cards.requireEligible(card)
        let (record, token) = try await services.access.createProvisionToken(card: card, wallet: wallet)
        return .created(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(
                    .init(provisionToken: token, cardId: card.id, wallet: .init(wallet), expiresAt: record.expiresAt))))
    }
}
