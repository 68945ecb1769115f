import ProvisioAPI
import ProvisioCore

/// The cardholder's tokens from the app (`/v1/mobile/tokens`): a mobile session sees its
/// customer's live tokens on every wallet and device, changes one, or activates a pending one
/// after the app's own authentication. A provision token is for one add, not for these.
extension ProvisioAPIHandler {
    func listMobileTokens(_ input: Operations.ListMobileTokens.Input) async throws -> Operations.ListMobileTokens.Output {
        let session = try Self.mobileSession()
        let owned = try await services.cardholderTokens.tokens(tenantID: session.tenantID, customerRef: session.customerRef)
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(data: owned.map(Components.Schemas.MobileToken.init)))))
    }

    func transitionMobileToken(_ input: Operations.TransitionMobileToken.Input) async throws
        -> Operations.TransitionMobileToken.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let session = try Self.mobileSession()
        let action: CardholderTokenService.Action =
            switch body.action {
            case .suspend: .suspend
            case .resume: .resume
            case .delete: .delete
            }
        let changed = try await services.cardholderTokens.change(
            action, tokenID: try Self.tokenID(input.path.id), tenantID: session.tenantID, customerRef: session.customerRef)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(changed))))
    }

    func activateMobileToken(_ input: Operations.ActivateMobileToken.Input) async throws
        -> Operations.ActivateMobileToken.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let session = try Self.mobileSession()
        switch body.method {
        case .appAuthentication: break
        }
        let activated = try await services.cardholderTokens.activateByApp(
            tokenID: try Self.tokenID(input.path.id), tenantID: session.tenantID, customerRef: session.customerRef)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(activated))))
    }

    /// The caller's mobile session: only a customer's session reaches their tokens.
    static func mobileSession() throws -> MobileSessionRecord {
        guard case .mobileSession(let session) = try RequestScope.require().requirePrincipal() else {
            throw ProvisioError(.wrongCredentialKind, "Only a mobile session reaches the customer's tokens.")
        }
        return session
    }
}

extension Components.Schemas.MobileToken {
    init(_ owned: CardholderTokenService.OwnedToken) {
        let token = owned.token
        self.init(
            id: token.id, cardId: token.cardID, cardLast4: owned.card.last4, tokenLast4: token.tokenLast4,
            deviceAccountIdentifier: token.deviceAccountIdentifier,
            wallet: .init(token.wallet), deviceType: token.deviceType.map(Components.Schemas.DeviceType.init),
            state: .init(token.state), createdAt: token.createdAt, updatedAt: token.updatedAt)
    }
}
