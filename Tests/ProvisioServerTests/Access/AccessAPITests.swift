import Foundation
import ProvisioAPI
import ProvisioCore
import Testing

@testable import ProvisioServer

/// API keys and mobile sessions over HTTP: several named, scoped keys per tenant; a revoked
/// key or session fails on its next request; keys never cross tenants.
@Suite struct AccessAPITests {
    @Test(arguments: TestEngine.available)
    func keysAreCreatedListedUsedAndRevoked(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            server.clock.advance(by: 1)
            let created = try await api.createAPIKey(body: .json(.init(name: "  support tool ", scope: .readOnly)))
                .created.body.json
            #expect(created.name == "support tool" && created.scope == .readOnly)
            #expect(created.key.hasPrefix("prv_sk_") && created.id.hasPrefix("key_"))

            // Unused yet; then used, to the minute.
            var listed = try await api.listAPIKeys().ok.body.json.data
            #expect(listed.map(\.name) == ["default", "support tool"])
            #expect(listed[1].lastUsedAt == nil && listed[1].revokedAt == nil)
            _ = try await server.api(created.key).listCards(query: .init(customerRef: "cust_1")).ok
            listed = try await api.listAPIKeys().ok.body.json.data
            #expect(listed[1].lastUsedAt == server.clock.now().wholeSeconds)
            #expect(listed[0].lastUsedAt != nil)

            // A read-only key reads and does not write.
            let write = try await server.api(created.key).createMobileSession(body: .json(.init(customerRef: "cust_1")))
            #expect(write.refused(403, .insufficientScope), "\(write)")

            let revoked = try await api.revokeAPIKey(path: .init(id: created.id)).ok.body.json
            #expect(revoked.revokedAt == server.clock.now().wholeSeconds)
            let refused = try await server.api(created.key).listCards(query: .init(customerRef: "cust_1"))
            #expect(refused.refused(401, .apiKeyRevoked), "\(refused)")
            // Revoking again answers the key as it was revoked.
            server.clock.advance(by: 30)
            #expect(try await api.revokeAPIKey(path: .init(id: created.id)).ok.body.json.revokedAt == revoked.revokedAt)

            // A key may revoke itself; then it is done.
            let own = try await api.listAPIKeys().ok.body.json.data[0]
            _ = try await api.revokeAPIKey(path: .init(id: own.id)).ok
            #expect(try await api.listAPIKeys().refused(401, .apiKeyRevoked))
        }
    }

    @Test(arguments: TestEngine.available)
    func keysStayWithinTheirTenantAndRefuseBadInput(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, keyA) = try await server.makeTenant("A")
            let (_, keyB) = try await server.makeTenant("B")
            let other = try await server.api(keyA).createAPIKey(body: .json(.init(name: "a2", scope: .full))).created.body.json
            let cross = try await server.api(keyB).revokeAPIKey(path: .init(id: other.id))
            #expect(cross.refused(404, .apiKeyNotFound), "\(cross)")
            #expect(try await server.api(keyB).listAPIKeys().ok.body.json.data.map(\.name) == ["default"])
            #expect(try await server.api(other.key).listAPIKeys().ok.body.json.data.count == 2)

            for name in ["", String(repeating: "n", count: 65), "card 4111111111111111"] {
                let refused = try await server.api(keyA).createAPIKey(body: .json(.init(name: name, scope: .full)))
                let expected: Components.Schemas.ErrorCode = name.contains("4111") ? .cardNumberInText : .invalidParameter
                #expect(refused.refused(400, expected), "\(refused)")
            }
            let unknownScope = try await server.raw.post(
                "/v1/api-keys", token: keyA, body: ["name": "x", "scope": "admin"] as OpenAPIJSON)
            #expect(unknownScope.status == 400 && unknownScope.error != nil, "\(unknownScope.text)")
        }
    }

    @Test(arguments: TestEngine.available)
    func mobileSessionsAreRevokedOneByOneOrPerCustomer(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            _ = try await server.makeCard(apiKey: apiKey, customerRef: "cust_1")
            let api = server.api(apiKey)
            func session(_ customer: String) async throws -> Components.Schemas.MobileSession {
                try await api.createMobileSession(body: .json(.init(customerRef: customer))).created.body.json
            }
            let first = try await session("cust_1")
            let second = try await session("cust_1")
            let third = try await session("cust_2")
            #expect(first.id.hasPrefix("ms_") && Set([first.id, second.id, third.id]).count == 3)
            #expect(try await server.api(first.token).listMobileCards().ok.body.json.data.count == 1)

            _ = try await api.revokeMobileSession(path: .init(id: first.id)).noContent
            #expect(try await server.api(first.token).listMobileCards().refused(401, .invalidCredentials))
            #expect(try await server.api(second.token).listMobileCards().ok.body.json.data.count == 1)
            let again = try await api.revokeMobileSession(path: .init(id: first.id))
            #expect(again.refused(404, .mobileSessionNotFound), "\(again)")

            let all = try await api.revokeCustomerMobileSessions(query: .init(customerRef: "cust_1")).ok.body.json
            #expect(all.revoked == 1)
            #expect(try await server.api(second.token).listMobileCards().refused(401, .invalidCredentials))
            #expect(try await server.api(third.token).listMobileCards().ok.body.json.data.isEmpty)

            // Another tenant's key cannot end this tenant's sessions.
            let (_, otherKey) = try await server.makeTenant("Other")
            let cross = try await server.api(otherKey).revokeMobileSession(path: .init(id: third.id))
            #expect(cross.refused(404, .mobileSessionNotFound), "\(cross)")
            #expect(
                try await server.api(otherKey).revokeCustomerMobileSessions(query: .init(customerRef: "cust_2")).ok.body.json
                    .revoked == 0)
            #expect(try await server.api(third.token).listMobileCards().ok.body.json.data.isEmpty)
        }
    }

    /// Rotating the network's key: the old one keeps working through the overlap, then fails.
    @Test(arguments: TestEngine.available)
    func networkKeysRotateWithAnOverlap(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, _) = try await server.makeTenant()
            let access = server.services.access
            let first = try await access.createNetworkKey(tenantID: tenantID)
            let second = try await access.createNetworkKey(tenantID: tenantID, retiringPreviousAfter: 60)
            for key in [first, second] {
                guard case .network(let owner) = try await access.authenticate(bearer: key) else {
                    Issue.record("a network key did not authenticate during the overlap")
                    return
                }
                #expect(owner == tenantID)
            }
            server.clock.advance(by: 60)
            await #expect(throws: ProvisioError.self) { try await access.authenticate(bearer: first) }
            #expect(
                try await server.raw.post("/v1/network/token-requests", token: first, body: [:] as OpenAPIJSON)
                    .refused(401, .invalidCredentials))
            guard case .network = try await access.authenticate(bearer: second) else {
                Issue.record("the new network key stopped working")
                return
            }
            // A rotation never extends a key that already stops sooner.
            let third = try await access.createNetworkKey(tenantID: tenantID, retiringPreviousAfter: 600)
            await #expect(throws: ProvisioError.self) { try await access.authenticate(bearer: first) }
            guard case .network = try await access.authenticate(bearer: third) else {
                Issue.record("the newest network key does not work")
                return
            }
            await #expect(throws: ProvisioError.self) {
                try await access.createNetworkKey(tenantID: tenantID, retiringPreviousAfter: 604_801)
            }

            // Through the API, a full key rotates it at once; the network's requests with the
            // older keys fail from then on.
            let (_, apiKey) = try await server.makeTenant("Rotating Bank")
            let viaAPI = try await server.api(apiKey).createNetworkKey(body: .json(.init())).created.body.json
            #expect(viaAPI.previousKeysRetireAt == nil)
            let rotated = try await server.api(apiKey).createNetworkKey(body: .json(.init(retirePreviousAfterSeconds: 0)))
                .created.body.json
            #expect(
                try await server.raw.post("/v1/network/token-requests", token: viaAPI.networkKey, body: [:] as OpenAPIJSON)
                    .refused(401, .invalidCredentials))
            guard case .network = try await access.authenticate(bearer: rotated.networkKey) else {
                Issue.record("the rotated-in network key does not work")
                return
            }
            let tooLong = try await server.api(apiKey).createNetworkKey(body: .json(.init(retirePreviousAfterSeconds: 604_801)))
            #expect(tooLong.refused(400, .invalidParameter), "\(tooLong)")
        }
    }

    /// A database from before API keys had their own table keeps working: the tenant's key
    /// becomes its `default` key and old sessions get ids.
    @Test(arguments: TestEngine.available)
    func theUpgradeKeepsTheTenantsKeyAndSessions(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine, schemaVersion: 6) { database in
            let handle = database.handle
            let apiKey = "prv_sk_old_key"
            let sessionToken = "prv_ms_old_session"
            try await handle.write { database in
                try await database.raw(
                    """
                    INSERT INTO tenants (id, name, api_key_hash, created_at)
                    VALUES ('ten_old', 'Old Bank', \(bind: RandomToken.sha256Hex(apiKey)), 1800000000000)
                    """
                ).run()
                try await database.raw(
                    """
                    INSERT INTO mobile_sessions (token_hash, tenant_id, customer_ref, expires_at, created_at)
                    VALUES (\(bind: RandomToken.sha256Hex(sessionToken)), 'ten_old', 'cust_1', 4000000000000, 1800000000000)
                    """
                ).run()
            }
            #expect(try await Migrator(handle: handle).migrate() == Array(7...SchemaMigrations.all.count))
            let access = AccessService(store: SQLProvisioStore(handle: handle), clock: TestClock())
            guard case .apiKey(let key) = try await access.authenticate(bearer: apiKey) else {
                Issue.record("the old key no longer authenticates")
                return
            }
            #expect(key.id == "key_ten_old" && key.name == "default" && key.scope == .full && key.tenantID == "ten_old")
            guard case .mobileSession(let session) = try await access.authenticate(bearer: sessionToken) else {
                Issue.record("the old session no longer authenticates")
                return
            }
            #expect(session.id.hasPrefix("ms_") && session.id.count == 27)
            try await access.revokeMobileSession(id: session.id, tenantID: "ten_old")
            await #expect(throws: ProvisioError.self) { try await access.authenticate(bearer: sessionToken) }
        }
    }
}

extension Date {
    /// The API's timestamps have whole seconds.
    var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
