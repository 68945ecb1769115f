import Foundation
import ProvisioAPI
import ProvisioCore

/// Tokens for the issuer's backend: look up (by card, customer, pass or network reference), read with history, suspend / resume /
/// delete, and activation of a pending token (TAV for in-app verification, or customer
/// service).
extension ProvisioAPIHandler {
    func listTokens(_ input: Operations.ListTokens.Input) async throws -> Operations.ListTokens.Output {
        let query = input.query
        let page = try await services.tokens.tokens(
            matching: TokenSearch(
                cardID: query.cardId, customerRef: query.customerRef,
                deviceAccountIdentifier: query.deviceAccountIdentifier, networkTokenRef: query.networkTokenRef),
            tenantID: try Self.tenantID(), cursor: query.cursor, limit: query.limit)
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(data: page.items.map { Components.Schemas.Token($0) }, nextCursor: page.nextCursor))))
    }

    func getToken(_ input: Operations.GetToken.Input) async throws -> Operations.GetToken.Output {
        let token = try await services.tokens.token(id: try Self.tokenID(input.path.id), tenantID: try Self.tenantID())
        let events = try await services.tokens.events(of: token)
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(Components.Schemas.Token(token, events: events))))
    }

    func transitionToken(_ input: Operations.TransitionToken.Input) async throws -> Operations.TransitionToken.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let event: TokenEvent
        switch body.action {
        case .suspend: event = .suspend(by: .issuer)
        case .resume: event = .resume(by: .issuer)
        case .delete: event = .delete(by: .issuer)
        }
        let token = try await services.tokens.token(id: try Self.tokenID(input.path.id), tenantID: try Self.tenantID())
        let changed = try await services.tokens.issuerChange(event, to: token, reasonCode: body.reasonCode)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(Components.Schemas.Token(changed))))
    }

    func activateToken(_ input: Operations.ActivateToken.Input) async throws -> Operations.ActivateToken.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let token = try await services.tokens.token(id: try Self.tokenID(input.path.id), tenantID: try Self.tenantID())
        let result: Components.Schemas.TokenActivationResult
        switch body.mode {
        case .tav:
            let (data, validUntil) = try await services.tokens.activationData(for: token)
            result = .init(activationData: data, validUntil: validUntil)
        case .customerService:
            guard let reason = body.reasonCode else {
                throw ProvisioError(.invalidParameter, "reason_code is required for customer_service activation.")
            }
            let activated = try await services.tokens.issuerChange(.verified(.customerService), to: token, reasonCode: reason)
            result = .init(activated)
        }
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(result)))
    }

    /// A token id from the path: one that cannot be a token's is `token_not_found`.
    static func tokenID(_ id: String) throws -> String {
        guard !id.isEmpty, id.count <= 64 else { throw ProvisioError(.tokenNotFound, "No token with this id.") }
        return id
    }
}

extension Components.Schemas.Token {
    /// A token as the API shows it; `events` only where the operation documents its history.
    init(_ token: TokenRecord, events: [TokenEventRecord]? = nil) {
        self.init(
            id: token.id, cardId: token.cardID, wallet: .init(token.wallet),
            deviceType: token.deviceType.map(Components.Schemas.DeviceType.init), networkTokenRef: token.networkTokenRef,
            state: .init(token.state), networkState: token.networkState, tokenLast4: token.tokenLast4,
            tokenExpiryMonth: token.tokenExpiryMonth, tokenExpiryYear: token.tokenExpiryYear,
            deviceAccountIdentifier: token.deviceAccountIdentifier, decision: .init(token.decision),
            decisionReasons: token.decisionReasons, createdAt: token.createdAt, updatedAt: token.updatedAt,
            events: events?.map(Components.Schemas.TokenEvent.init))
    }
}

extension Components.Schemas.TokenEvent {
    init(_ event: TokenEventRecord) {
        self.init(
            _type: event.type, fromState: event.fromState.map(Components.Schemas.TokenState.init), toState: .init(event.toState),
            actor: {
                switch event.actor {
                case .issuer: .issuer
                case .network: .network
                }
            }(), reasonCode: event.reasonCode, createdAt: event.createdAt)
    }
}

extension Components.Schemas.TokenActivationResult {
    /// The activated token (mode `customer_service`): the Token fields.
    init(_ token: TokenRecord) {
        let wire = Components.Schemas.Token(token)
        self.init(
            id: wire.id, cardId: wire.cardId, wallet: wire.wallet, deviceType: wire.deviceType,
            networkTokenRef: wire.networkTokenRef, state: wire.state, networkState: wire.networkState,
            tokenLast4: wire.tokenLast4, tokenExpiryMonth: wire.tokenExpiryMonth, tokenExpiryYear: wire.tokenExpiryYear,
            deviceAccountIdentifier: wire.deviceAccountIdentifier, decision: wire.decision,
            decisionReasons: wire.decisionReasons, createdAt: wire.createdAt, updatedAt: wire.updatedAt)
    }
}

extension Components.Schemas.TokenState {
    init(_ state: TokenState) {
        switch state {
        case .requested: self = .requested
        case .pendingVerification: self = .pendingVerification
        case .active: self = .active
        case .suspended: self = .suspended
        case .deleted: self = .deleted
        case .declined: self = .declined
        }
    }
}

extension Components.Schemas.DecisionOutcome {
    init(_ outcome: DecisionOutcome) {
        switch outcome {
        case .approve: self = .approve
        case .requireVerification: self = .requireVerification
        case .decline: self = .decline
        }
    }
}
