import Foundation
import ProvisioAPI
import ProvisioCore

/// The tenant's API keys (create, list, revoke) and its audit log.
extension ProvisioAPIHandler {
    func listAPIKeys(_ input: Operations.ListAPIKeys.Input) async throws -> Operations.ListAPIKeys.Output {
        let keys = try await services.access.apiKeys(tenantID: try Self.tenantID())
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(data: keys.map(Components.Schemas.APIKey.init)))))
    }

    func createAPIKey(_ input: Operations.CreateAPIKey.Input) async throws -> Operations.CreateAPIKey.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let (key, secret) = try await services.access.createAPIKey(
            tenantID: try Self.tenantID(), name: body.name, scope: APIKeyScope(body.scope))
        return .created(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(
                    .init(
                        id: key.id, name: key.name, scope: .init(key.scope), createdAt: key.createdAt, key: secret))))
    }

    func revokeAPIKey(_ input: Operations.RevokeAPIKey.Input) async throws -> Operations.RevokeAPIKey.Output {
        let key = try await services.access.revokeAPIKey(id: try Self.pathID(input.path.id), tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(key))))
    }

    func createNetworkKey(_ input: Operations.CreateNetworkKey.Input) async throws -> Operations.CreateNetworkKey.Output {
        var overlap: Int?
        if case .json(let body) = input.body { overlap = body.retirePreviousAfterSeconds }
        let key = try await services.access.createNetworkKey(tenantID: try Self.tenantID(), retiringPreviousAfter: overlap)
        return .created(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(
                    .init(
                        networkKey: key,
                        previousKeysRetireAt: overlap.map { services.clock.now().addingTimeInterval(TimeInterval($0)) }))))
    }

    func listAuditEvents(_ input: Operations.ListAuditEvents.Input) async throws -> Operations.ListAuditEvents.Output {
        let query = input.query
        let filter = AuditFilter(
            targetType: query.targetType, targetID: query.targetId, actorType: query.actorType.map(AuditActor.Kind.init),
            actorID: query.actorId)
        let page = try await services.audit.events(
            tenantID: try Self.tenantID(), filter: filter, cursor: query.cursor, limit: query.limit)
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(data: page.items.map(Components.Schemas.AuditEvent.init), nextCursor: page.nextCursor))))
    }
}

extension Components.Schemas.APIKey {
    init(_ key: APIKeyRecord) {
        self.init(
            id: key.id, name: key.name, scope: .init(key.scope), createdAt: key.createdAt, lastUsedAt: key.lastUsedAt,
            revokedAt: key.revokedAt)
    }
}

extension Components.Schemas.AuditEvent {
    init(_ event: AuditEventRecord) {
        self.init(
            id: event.id, actorType: .init(event.actor.kind), actorId: event.actor.id, action: event.action,
            targetType: event.targetType, targetId: event.targetID, reason: event.reason, requestId: event.requestID,
            createdAt: event.createdAt)
    }
}

extension Components.Schemas.APIKeyScope {
    init(_ scope: APIKeyScope) {
        switch scope {
        case .full: self = .full
        case .readOnly: self = .readOnly
        case .provisioning: self = .provisioning
        }
    }
}

extension APIKeyScope {
    init(_ scope: Components.Schemas.APIKeyScope) {
        switch scope {
        case .full: self = .full
        case .readOnly: self = .readOnly
        case .provisioning: self = .provisioning
        }
    }
}

extension Components.Schemas.AuditActorType {
    init(_ kind: AuditActor.Kind) {
        switch kind {
        case .apiKey: self = .apiKey
        case .operator: self = ._operator
        case .network: self = .network
        case .mobileSession: self = .mobileSession
        case .provisionToken: self = .provisionToken
        case .commandLine: self = .commandLine
        case .system: self = .system
        }
    }
}

extension AuditActor.Kind {
    init(_ type: Components.Schemas.AuditActorType) {
        switch type {
        case .apiKey: self = .apiKey
        case ._operator: self = .operator
        case .network: self = .network
        case .mobileSession: self = .mobileSession
        case .provisionToken: self = .provisionToken
        case .commandLine: self = .commandLine
        case .system: self = .system
        }
    }
}
