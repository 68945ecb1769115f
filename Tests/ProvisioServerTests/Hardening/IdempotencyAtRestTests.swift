import Crypto
import Foundation
import NIOCore
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import SQLKit
import Testing

@testable import ProvisioServer

/// What an `Idempotency-Key` leaves in the database: no digest a PAN can be searched against,
/// no bearer secret or PAN in a stored answer, and no claim that outlives a crashed process.
@Suite struct IdempotencyAtRestTests {
    /// The digest the server stored before keyed digests: SHA-256 over method, path and the
    /// canonical body. If a stored digest matched this, ~10^5 guesses would recover the PAN.
    static func unkeyedDigest(path: String, body: some Encodable) throws -> String {
        var hasher = SHA256()
        hasher.update(data: Data("POST \(path)\n".utf8))
        hasher.update(data: Data("json\n".utf8))
        // Compact with sorted keys: the canonical body.
        hasher.update(data: try APIJSON.encode(body))
        return BinaryText.lowercaseHex(hasher.finalize())
    }

    struct StoredKey {
        var scope: String
        var key: String
        var requestHash: String
        var responseBody: String?
    }

    static func storedKeys(_ server: TestServer) async throws -> [StoredKey] {
        try await server.services.handle.read { database in
            try await database.raw("SELECT scope, idempotency_key, request_hash, response_body FROM idempotency_keys").all().map {
                StoredKey(
                    scope: try $0.decode(column: "scope", as: String.self),
                    key: try $0.decode(column: "idempotency_key", as: String.self),
                    requestHash: try $0.decode(column: "request_hash", as: String.self),
                    responseBody: try $0.decode(column: "response_body", as: String?.self))
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func storedDigestsAreKeyedAndStoredAnswersSealed(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let pan = "5555555555554444"
            // Raw: the replays below are compared byte for byte.
            let cardBody = Components.Schemas.CreateCardRequest(
                customerRef: "cust_1", pan: pan, expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane")
            let card = try await server.raw.post("/v1/cards", token: apiKey, body: cardBody, headers: ["Idempotency-Key": "c"])
            #expect(card.status == 201)
            let cardID = try card.decode(Components.Schemas.Card.self).id
            let sessionBody = Components.Schemas.MobileSessionRequest(customerRef: "cust_1")
            let session = try await server.raw.post(
                "/v1/mobile-sessions", token: apiKey, body: sessionBody, headers: ["Idempotency-Key": "s"])
            let provision = try await server.raw.post(
                "/v1/provision-tokens", token: apiKey,
                body: Components.Schemas.ProvisionTokenRequest(cardId: cardID, wallet: .applePay),
                headers: ["Idempotency-Key": "p"])
            let hookBody = Components.Schemas.CreateWebhookEndpointRequest(url: "https://example.com/hook", events: [._ast_])
            let hook = try await server.raw.post(
                "/v1/webhook-endpoints", token: apiKey, body: hookBody, headers: ["Idempotency-Key": "w"])
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            let tokenRequest = TokenAPITests.networkTokenRequest(ref: "ref-at-rest", pan: pan)
            let decision = try await server.raw.post(
                "/v1/network/token-requests", token: networkKey, body: tokenRequest, headers: ["Idempotency-Key": "n"])
            #expect(session.status == 201 && provision.status == 201 && hook.status == 201, "\(provision.text)")
            #expect(decision.status == 200, "\(decision.text)")
            #expect(try decision.decode(Components.Schemas.NetworkDecision.self).decision == .approve)
            let secrets = try [
                session.decode(Components.Schemas.MobileSession.self).token,
                provision.decode(Components.Schemas.ProvisionToken.self).provisionToken,
                #require(try hook.decode(Components.Schemas.WebhookEndpoint.self).secret),
            ]
            #expect(secrets[0].hasPrefix("prv_ms_") && secrets[1].hasPrefix("prv_pt_") && secrets[2].hasPrefix("whsec_"))

            let stored = try await Self.storedKeys(server)
            #expect(stored.count == 5)
            for row in stored {
                let body = try #require(row.responseBody)
                #expect(body.hasPrefix("pv1."), "stored answer \(row.key) is not a vault record")
                for secret in secrets + [pan, String(pan.suffix(12))] {
                    #expect(!body.contains(secret) && !row.requestHash.contains(secret))
                }
                #expect(row.requestHash.count == 64)
            }
            // No stored digest is the unkeyed hash of the body that carried the PAN.
            let hashes = Set(stored.map(\.requestHash))
            #expect(!hashes.contains(try Self.unkeyedDigest(path: "/v1/cards", body: cardBody)))
            #expect(!hashes.contains(try Self.unkeyedDigest(path: "/v1/network/token-requests", body: tokenRequest)))

            // Sealed answers still replay exactly, and the replayed secrets work.
            let again = try await server.raw.post(
                "/v1/mobile-sessions", token: apiKey, body: sessionBody, headers: ["Idempotency-Key": "s"])
            #expect(again.header("Idempotent-Replayed") == "true" && again.body == session.body)
            #expect(try await server.api(secrets[0]).listMobileCards().status == 200)
            let hookAgain = try await server.raw.post(
                "/v1/webhook-endpoints", token: apiKey, body: hookBody, headers: ["Idempotency-Key": "w"])
            #expect(hookAgain.body == hook.body)

            // A stored answer moved to another key or scope does not open (bound to its row).
            let cardRow = try #require(stored.first { $0.key == "c" })
            try await server.services.handle.write { database in
                try await database.raw(
                    "UPDATE idempotency_keys SET response_body = \(bind: cardRow.responseBody) WHERE idempotency_key = 's'"
                ).run()
            }
            let moved = try await server.raw.post(
                "/v1/mobile-sessions", token: apiKey, body: sessionBody, headers: ["Idempotency-Key": "s"])
            #expect(moved.refused(409, .idempotencyReplayUnavailable), "\(moved.text)")
            #expect(!moved.text.contains(pan))
        }
    }

    @Test(arguments: TestEngine.available)
    func aClaimLeftByACrashedProcessIsTakenOverOnceItsLeaseRunsOut(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let body = Components.Schemas.MobileSessionRequest(customerRef: "cust_9")
            let canonical = try APIJSON.encode(body)
            // A process claimed the key, then died: its lease is never renewed.
            let hash = IdempotencyMiddleware.fingerprint(
                method: .post, path: "/v1/mobile-sessions", body: ByteBuffer(bytes: canonical),
                digester: server.services.requestDigester)
            let now = server.clock.now()
            let dead = IdempotencyLease(token: "dead-process", expiresAt: now.addingTimeInterval(30))
            #expect(
                try await server.services.store.claimIdempotencyKey(
                    scope: tenantID, key: "crash-1", requestHash: hash, lease: dead, at: now) == .claimed)

            // While the lease runs, the claim stands (a retry would wait for its answer).
            server.clock.advance(by: 29)
            guard
                case .existing = try await server.services.store.claimIdempotencyKey(
                    scope: tenantID, key: "crash-1", requestHash: hash,
                    lease: IdempotencyLease(token: "probe", expiresAt: server.clock.now()), at: server.clock.now())
            else {
                Issue.record("a live lease was taken over")
                return
            }

            // Once it has run out, the retry takes the key over and runs the request once.
            server.clock.advance(by: 2)
            let retried = try await server.raw.post(
                "/v1/mobile-sessions", token: apiKey, body: body, headers: ["Idempotency-Key": "crash-1"])
            #expect(retried.status == 201 && retried.header("Idempotent-Replayed") == nil, "\(retried.text)")
            #expect(try retried.decode(Components.Schemas.MobileSession.self).customerRef == "cust_9")
            let replayed = try await server.raw.post(
                "/v1/mobile-sessions", token: apiKey, body: body, headers: ["Idempotency-Key": "crash-1"])
            #expect(replayed.header("Idempotent-Replayed") == "true" && replayed.body == retried.body)
        }
    }
}

/// A retry after a crash answers from the effect the crashed attempt made, never makes a
/// second one: the effect and its `kind:id` on the claim are one transaction.
@Suite struct IdempotentEffectTests {
    /// Simulates a process that claimed `key`, made its effect and died before storing the
    /// answer: the request runs through the real middleware, then the answer is taken back.
    static func crashAfterEffect(
        _ server: TestServer, tenantID: String, apiKey: String, path: String, body: some Encodable, key: String
    ) async throws -> RawClient.Response {
        let first = try await server.raw.post(path, token: apiKey, body: body, headers: ["Idempotency-Key": key])
        try await server.services.handle.write { database in
            try await database.raw(
                """
                UPDATE idempotency_keys SET state = 'in_progress', response_status = NULL, response_body = NULL,
                    lease_token = 'dead', lease_expires_at = 0
                WHERE scope LIKE \(bind: tenantID + "/%") AND idempotency_key = \(bind: key)
                """
            ).run()
        }
        return first
    }

    @Test(arguments: TestEngine.available)
    func aRetryAfterACrashAnswersFromTheEffectAlreadyMade(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            // Raw, with the key: the first answer is kept and the stored one taken back.
            let cardBody = Components.Schemas.CreateCardRequest(
                customerRef: "crash", pan: "4111111111111111", expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane")
            let card = try await Self.crashAfterEffect(
                server, tenantID: tenantID, apiKey: apiKey, path: "/v1/cards", body: cardBody, key: "k-card")
            let retried = try await api.createCard(headers: .init(idempotencyKey: "k-card"), body: .json(cardBody)).created
            #expect(retried.headers.idempotentReplayed == nil)
            #expect(try retried.body.json.id == card.decode(Components.Schemas.Card.self).id)
            let cards = try await api.listCards(query: .init(customerRef: "crash")).ok.body.json
            #expect(cards.data.count == 1)

            // A session's token never reached anyone: the retry replaces it (one session, a working token).
            let sessionBody = Components.Schemas.MobileSessionRequest(customerRef: "crash")
            let session = try await Self.crashAfterEffect(
                server, tenantID: tenantID, apiKey: apiKey, path: "/v1/mobile-sessions", body: sessionBody, key: "k-session")
            let again = try await api.createMobileSession(headers: .init(idempotencyKey: "k-session"), body: .json(sessionBody))
            let old = try session.decode(Components.Schemas.MobileSession.self).token
            let new = try again.created.body.json.token
            #expect(try await server.api(old).listMobileCards().refusal?.status == 401)
            #expect(try await server.api(new).listMobileCards().status == 200)
            let sessions = try await server.services.handle.read { database in
                try await database.raw("SELECT COUNT(*) AS n FROM mobile_sessions WHERE customer_ref = 'crash'").first()?
                    .decode(column: "n", as: Int.self)
            }
            #expect(sessions == 1)

            // A webhook endpoint comes back with its secret; a test event is not sent twice.
            let hookBody = Components.Schemas.CreateWebhookEndpointRequest(url: "https://example.com/crash", events: [._ast_])
            let hook = try await Self.crashAfterEffect(
                server, tenantID: tenantID, apiKey: apiKey, path: "/v1/webhook-endpoints", body: hookBody, key: "k-hook"
            )
            .decode(Components.Schemas.WebhookEndpoint.self)
            let hookAgain = try await api.createWebhookEndpoint(headers: .init(idempotencyKey: "k-hook"), body: .json(hookBody))
                .created.body.json
            #expect(hookAgain.id == hook.id)
            #expect(hookAgain.secret == hook.secret && hook.secret != nil)
            let endpointID = hook.id
            let test = try await Self.crashAfterEffect(
                server, tenantID: tenantID, apiKey: apiKey, path: "/v1/webhook-endpoints/\(endpointID)/test",
                body: [String: String](), key: "k-test")
            // The same bytes again (`{}`; the generated client would send no body at all).
            let testAgain = try await server.raw.post(
                "/v1/webhook-endpoints/\(endpointID)/test", token: apiKey, body: [String: String](),
                headers: ["Idempotency-Key": "k-test"])
            #expect(testAgain.status == 202, "\(testAgain.text)")
            #expect(
                try testAgain.decode(Components.Schemas.WebhookEventSummary.self).id
                    == test.decode(Components.Schemas.WebhookEventSummary.self).id)
            let deliveries = try await api.listWebhookDeliveries(query: .init(endpointId: endpointID)).ok.body.json
            #expect(deliveries.data.count == 1)
        }
    }
}
