import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import SQLKit
import Testing

@testable import ProvisioServer

/// The audit log: every kind of change appends one line naming its actor, reason and request;
/// it is read newest first, filtered by target and actor, page by page; nothing changes it.
@Suite struct AuditLogTests {
    @Test(arguments: TestEngine.available)
    func aSupportCallLeavesItsTrail(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(
                server, defaultRisk: RiskAssessment(deviceScore: 2, accountScore: 5, walletRecommendation: .approve)
            ) { h in
                let api = server.api(h.apiKey)
                let keyID = try await api.listAPIKeys().ok.body.json.data[0].id
                let submission = try await h.add()
                let outcome = try #require(await h.network.outcome(sessionID: submission.sessionID))
                let tokenID = outcome.issuerTokenID
                _ = try await api.activateToken(
                    path: .init(id: tokenID), body: .json(.init(mode: .customerService, reasonCode: "agent_42_verified_id"))
                ).ok
                _ = try await h.network.reportDeviceLost(networkTokenRef: outcome.networkTokenRef)

                // The token's history: the network created and decided it, the key activated
                // it with the agent's reason, the network suspended it. Newest first.
                let trail = try await api.listAuditEvents(query: .init(targetType: "token", targetId: tokenID)).ok.body.json
                #expect(trail.data.map(\.action) == ["token.suspended", "token.activated", "token.updated", "token.created"])
                #expect(trail.data.map(\.actorType) == [.network, .apiKey, .network, .network])
                #expect(trail.data[1].actorId == keyID && trail.data[1].reason == "agent_42_verified_id")
                #expect(trail.data.allSatisfy { $0.requestId?.hasPrefix("req_") == true && $0.targetId == tokenID })

                // Settings, keys, sessions and the card, each by the key that made them; closing
                // the card deletes its (suspended) token, by the same key.
                _ = try await api.updateDecisioningSettings(body: .json(.init(minimumDeviceScore: 3))).ok
                let key = try await api.createAPIKey(body: .json(.init(name: "ops", scope: .readOnly))).created.body.json
                _ = try await api.revokeAPIKey(path: .init(id: key.id)).ok
                let session = try await api.createMobileSession(body: .json(.init(customerRef: "cust_1"))).created.body.json
                _ = try await api.revokeMobileSession(path: .init(id: session.id)).noContent
                _ = try await api.closeCard(path: .init(id: h.cardID)).ok

                let byKey = try await api.listAuditEvents(query: .init(actorType: .apiKey, actorId: keyID)).ok.body.json.data
                #expect(
                    byKey.map(\.action) == [
                        "token.deleted", "card.closed", "mobile_session.revoked", "mobile_session.created", "api_key.revoked",
                        "api_key.created", "settings.decisioning.updated", "token.activated", "settings.network.updated",
                        // The harness's tenant sets a customer-service number (the yellow path offers it).
                        "settings.activation_methods.updated", "card.created",
                    ])
                #expect(byKey.first { $0.action == "api_key.created" }?.targetId == key.id)

                // The tenant itself and its network key came from outside any request.
                let all = try await Self.everyPage(api, limit: 3)
                #expect(Set(all.map(\.id)).count == all.count)
                #expect(all.last?.action == "tenant.created" && all.last?.actorType == .system)
                #expect(all.contains { $0.action == "network_key.created" && $0.actorType == .system })
                #expect(zip(all, all.dropFirst()).allSatisfy { $0.createdAt >= $1.createdAt })

                // Another tenant sees none of it.
                let (_, otherKey) = try await server.makeTenant("Other Bank")
                let others = try await server.api(otherKey).listAuditEvents(query: .init()).ok.body.json.data
                #expect(others.map(\.action) == ["api_key.created", "tenant.created"])
            }
        }
    }

    static func everyPage(_ api: Client, limit: Int) async throws -> [Components.Schemas.AuditEvent] {
        var all: [Components.Schemas.AuditEvent] = []
        var cursor: String?
        repeat {
            let page = try await api.listAuditEvents(query: .init(limit: limit, cursor: cursor)).ok.body.json
            #expect(page.data.count <= limit)
            all += page.data
            cursor = page.nextCursor
        } while cursor != nil
        return all
    }

    @Test(arguments: TestEngine.available)
    func badFiltersKeepTheirCodes(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let tooLong = try await server.api(apiKey).listAuditEvents(
                query: .init(targetId: String(repeating: "t", count: 129)))
            #expect(tooLong.refused(400, .invalidParameter), "\(tooLong)")
            let badCursor = try await server.api(apiKey).listAuditEvents(query: .init(cursor: "nope"))
            #expect(badCursor.refused(400, .invalidCursor), "\(badCursor)")
            let unknownActor = try await server.raw.get("/v1/audit-events?actor_type=robot", token: apiKey)
            #expect(unknownActor.status == 400 && unknownActor.error != nil, "\(unknownActor.text)")
        }
    }

    /// Below every interface too: the database refuses to change or remove a line.
    @Test(arguments: TestEngine.available)
    func theDatabaseRefusesToEditTheLog(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(TenantRecord(id: "ten_a", name: "A", createdAt: Date()))
            let before = try await store.auditEvents(tenantID: "ten_a", filter: AuditFilter(), cursor: nil, limit: 10).items
            #expect(before.map(\.action) == ["api_key.created", "tenant.created"])
            await #expect(throws: (any Error).self) {
                try await database.handle.write { try await $0.raw("UPDATE audit_events SET action = 'nothing'").run() }
            }
            await #expect(throws: (any Error).self) {
                try await database.handle.write { try await $0.raw("DELETE FROM audit_events").run() }
            }
            let after = try await store.auditEvents(tenantID: "ten_a", filter: AuditFilter(), cursor: nil, limit: 10).items
            #expect(after == before)
        }
    }

    /// Webhook changes and command-line changes, at the store.
    @Test(arguments: TestEngine.available)
    func webhookReplaysAndCommandLineChangesAreRecorded(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            let t0 = Date(timeIntervalSince1970: 1_800_000_000)
            try await AuditContext.$current.withValue(AuditContext(actor: .commandLine)) {
                try await store.insertTenant(TenantRecord(id: "ten_a", name: "A", createdAt: t0))
            }
            let operatorActor = AuditContext(actor: AuditActor(.operator, id: "op_1"), requestID: "req_1")
            try await AuditContext.$current.withValue(operatorActor) {
                try await store.insertWebhookEndpoint(
                    WebhookEndpointRecord(
                        id: "whe_1", tenantID: "ten_a", url: "https://hooks.example/x", events: ["*"],
                        secretVaultRecord: "pv1.k.AA.BB", createdAt: t0))
                let event = WebhookEventRecord(id: "msg_1", tenantID: "ten_a", type: "webhook.test", payload: "{}", createdAt: t0)
                try await store.enqueue(
                    event: event,
                    deliveries: [
                        WebhookDeliveryRecord(
                            id: "whd_1", tenantID: "ten_a", eventID: "msg_1", endpointID: "whe_1", state: .failed,
                            attemptCount: 5, nextAttemptAt: t0, lastResponseStatus: 500, lastError: nil, createdAt: t0,
                            updatedAt: t0)
                    ])
                _ = try await store.replayWebhookDelivery(id: "whd_1", tenantID: "ten_a", at: t0.addingTimeInterval(60))
            }
            let log = try await store.auditEvents(tenantID: "ten_a", filter: AuditFilter(), cursor: nil, limit: 10).items
            #expect(
                log.map(\.action) == [
                    "webhook_delivery.replayed", "webhook_endpoint.created", "api_key.created", "tenant.created",
                ])
            #expect(log[0].actor == AuditActor(.operator, id: "op_1") && log[0].requestID == "req_1")
            #expect(log[3].actor == .commandLine && log[3].requestID == nil)
            // An unknown delivery is not replayed and leaves no line.
            #expect(try await store.replayWebhookDelivery(id: "whd_x", tenantID: "ten_a", at: t0) == nil)
            let after = try await store.auditEvents(tenantID: "ten_a", filter: AuditFilter(), cursor: nil, limit: 10)
            #expect(after.items.count == 4)
        }
    }
}
