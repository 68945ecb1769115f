import Crypto
import Foundation
import NIOCore
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
    static func unkeyedDigest(path: String, body: [String: Any]) throws -> String {
        var hasher = SHA256()
        hasher.update(data: Data("POST \(path)\n".utf8))
        hasher.update(data: Data("json\n".utf8))
        hasher.update(data: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]))
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
            let cardBody: [String: Any] = [
                "customer_ref": "cust_1", "pan": pan, "expiry_month": 12, "expiry_year": 2030, "cardholder_name": "Jane",
            ]
            let card = try await server.client.post("/v1/cards", token: apiKey, json: cardBody, headers: ["Idempotency-Key": "c"])
            #expect(card.status == 201)
            let cardID = try #require(card.json?["id"] as? String)
            let session = try await server.client.post(
                "/v1/mobile-sessions", token: apiKey, json: ["customer_ref": "cust_1"], headers: ["Idempotency-Key": "s"])
            let provision = try await server.client.post(
                "/v1/provision-tokens", token: apiKey, json: ["card_id": cardID, "wallet": "apple_pay"],
                headers: ["Idempotency-Key": "p"])
            let hook = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": "https://example.com/hook", "events": ["*"]],
                headers: ["Idempotency-Key": "w"])
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            let tokenRequest = TokenAPITests.tokenRequest(ref: "ref-at-rest", pan: pan)
            let decision = try await server.client.post(
                "/v1/network/token-requests", token: networkKey, json: tokenRequest, headers: ["Idempotency-Key": "n"])
            #expect(session.status == 201 && provision.status == 201 && hook.status == 201, "\(provision.text)")
            #expect(decision.status == 200 || decision.status == 201, "\(decision.text)")
            let secrets = try [
                #require(session.json?["token"] as? String), #require(provision.json?["provision_token"] as? String),
                #require(hook.json?["secret"] as? String),
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
            let again = try await server.client.post(
                "/v1/mobile-sessions", token: apiKey, json: ["customer_ref": "cust_1"], headers: ["Idempotency-Key": "s"])
            #expect(again.header("Idempotent-Replayed") == "true" && again.body == session.body)
            #expect(try await server.client.get("/v1/mobile/cards", token: secrets[0]).status == 200)
            let hookAgain = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": "https://example.com/hook", "events": ["*"]],
                headers: ["Idempotency-Key": "w"])
            #expect(hookAgain.body == hook.body)

            // A stored answer moved to another key or scope does not open (bound to its row).
            let cardRow = try #require(stored.first { $0.key == "c" })
            try await server.services.handle.write { database in
                try await database.raw(
                    "UPDATE idempotency_keys SET response_body = \(bind: cardRow.responseBody) WHERE idempotency_key = 's'"
                ).run()
            }
            let moved = try await server.client.post(
                "/v1/mobile-sessions", token: apiKey, json: ["customer_ref": "cust_1"], headers: ["Idempotency-Key": "s"])
            #expect(moved.status == 409 && moved.errorCode == "idempotency_replay_unavailable", "\(moved.text)")
            #expect(!moved.text.contains(pan))
        }
    }

    @Test(arguments: TestEngine.available)
    func aClaimLeftByACrashedProcessIsTakenOverOnceItsLeaseRunsOut(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let body: [String: Any] = ["customer_ref": "cust_9"]
            let canonical = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
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
            let retried = try await server.client.post(
                "/v1/mobile-sessions", token: apiKey, json: body, headers: ["Idempotency-Key": "crash-1"])
            #expect(retried.status == 201 && retried.header("Idempotent-Replayed") == nil, "\(retried.text)")
            let replayed = try await server.client.post(
                "/v1/mobile-sessions", token: apiKey, json: body, headers: ["Idempotency-Key": "crash-1"])
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
        _ server: TestServer, tenantID: String, apiKey: String, path: String, body: [String: Any], key: String
    ) async throws -> APIClient.Response {
        let first = try await server.client.post(path, token: apiKey, json: body, headers: ["Idempotency-Key": key])
        try await server.services.handle.write { database in
            try await database.raw(
                """
                UPDATE idempotency_keys SET state = 'in_progress', response_status = NULL, response_body = NULL,
                    lease_token = 'dead', lease_expires_at = 0
                WHERE scope = \(bind: tenantID) AND idempotency_key = \(bind: key)
                """
            ).run()
        }
        return first
    }

    @Test(arguments: TestEngine.available)
    func aRetryAfterACrashAnswersFromTheEffectAlreadyMade(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let cardBody: [String: Any] = [
                "customer_ref": "crash", "pan": "4111111111111111", "expiry_month": 12, "expiry_year": 2030,
                "cardholder_name": "Jane",
            ]
            let card = try await Self.crashAfterEffect(
                server, tenantID: tenantID, apiKey: apiKey, path: "/v1/cards", body: cardBody, key: "k-card")
            let retried = try await server.client.post(
                "/v1/cards", token: apiKey, json: cardBody, headers: ["Idempotency-Key": "k-card"])
            #expect(retried.status == 201 && retried.header("Idempotent-Replayed") == nil, "\(retried.text)")
            #expect(retried.json?["id"] as? String == card.json?["id"] as? String)
            let cards = try await server.client.get("/v1/cards?customer_ref=crash", token: apiKey)
            #expect((cards.json?["data"] as? [Any])?.count == 1)

            // A session's token never reached anyone: the retry replaces it (one session, a working token).
            let session = try await Self.crashAfterEffect(
                server, tenantID: tenantID, apiKey: apiKey, path: "/v1/mobile-sessions", body: ["customer_ref": "crash"],
                key: "k-session")
            let again = try await server.client.post(
                "/v1/mobile-sessions", token: apiKey, json: ["customer_ref": "crash"], headers: ["Idempotency-Key": "k-session"])
            #expect(again.status == 201)
            let old = try #require(session.json?["token"] as? String)
            let new = try #require(again.json?["token"] as? String)
            #expect(try await server.client.get("/v1/mobile/cards", token: old).status == 401)
            #expect(try await server.client.get("/v1/mobile/cards", token: new).status == 200)
            let sessions = try await server.services.handle.read { database in
                try await database.raw("SELECT COUNT(*) AS n FROM mobile_sessions WHERE customer_ref = 'crash'").first()?
                    .decode(column: "n", as: Int.self)
            }
            #expect(sessions == 1)

            // A webhook endpoint comes back with its secret; a test event is not sent twice.
            let hookBody: [String: Any] = ["url": "https://example.com/crash", "events": ["*"]]
            let hook = try await Self.crashAfterEffect(
                server, tenantID: tenantID, apiKey: apiKey, path: "/v1/webhook-endpoints", body: hookBody, key: "k-hook")
            let hookAgain = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: hookBody, headers: ["Idempotency-Key": "k-hook"])
            #expect(hookAgain.json?["id"] as? String == hook.json?["id"] as? String)
            #expect(hookAgain.json?["secret"] as? String == hook.json?["secret"] as? String)
            let endpointID = try #require(hook.json?["id"] as? String)
            let test = try await Self.crashAfterEffect(
                server, tenantID: tenantID, apiKey: apiKey, path: "/v1/webhook-endpoints/\(endpointID)/test",
                body: [String: Any](), key: "k-test")
            let testAgain = try await server.client.post(
                "/v1/webhook-endpoints/\(endpointID)/test", token: apiKey, json: [String: Any](),
                headers: ["Idempotency-Key": "k-test"])
            #expect(testAgain.status == 202 && testAgain.json?["id"] as? String == test.json?["id"] as? String)
            let deliveries = try await server.client.get("/v1/webhook-deliveries?endpoint_id=\(endpointID)", token: apiKey)
            #expect((deliveries.json?["data"] as? [Any])?.count == 1)
        }
    }
}
