import Foundation
import ProvisioCore
import ProvisioCrypto
import Testing

@testable import ProvisioServer

/// Per-tenant decisioning: the rules each tenant sets, and the synchronous issuer decision
/// webhook with its timeout and default.
@Suite struct DecisioningTests {
    static let pan = "4111111111111111"

    func put(_ server: TestServer, _ path: String, key: String, _ json: [String: Any]) async throws -> APIClient.Response {
        try await server.client.send(.put, path, token: key, body: try JSONSerialization.data(withJSONObject: json))
    }

    func decide(
        _ server: TestServer, networkKey: String, ref: String, device: Int = 5, account: Int = 5, wallet: String = "approve"
    ) async throws -> APIClient.Response {
        try await server.client.post(
            "/v1/network/token-requests", token: networkKey,
            json: TokenAPITests.tokenRequest(ref: ref, device: device, account: account, wallet: wallet))
    }

    @Test(arguments: TestEngine.available)
    func eachTenantSetsItsOwnRules(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantA, keyA) = try await server.makeTenant("A")
            let (tenantB, keyB) = try await server.makeTenant("B")
            _ = try await server.makeCard(apiKey: keyA, pan: Self.pan)
            _ = try await server.makeCard(apiKey: keyB, pan: Self.pan)
            let networkA = try await server.services.access.createNetworkKey(tenantID: tenantA)
            let networkB = try await server.services.access.createNetworkKey(tenantID: tenantB)

            let standard = try await server.client.get("/v1/settings/decisioning", token: keyA)
            #expect(standard.status == 200)
            #expect(
                standard.json?["minimum_device_score"] as? Int == 3 && standard.json?["decline_at_or_below_score"] as? Int == 1)
            #expect(standard.json?["webhook_timeout_ms"] as? Int == 2000)
            #expect(standard.json?["webhook_default_decision"] as? String == "require_verification")

            // A strict tenant asks for verification below 5 and ignores the wallet's yellow.
            let strict = try await put(
                server, "/v1/settings/decisioning", key: keyA, ["minimum_device_score": 5, "follow_wallet_yellow": false])
            #expect(strict.status == 200, "\(strict.text)")
            #expect(strict.json?["minimum_device_score"] as? Int == 5 && strict.json?["minimum_account_score"] as? Int == 3)
            #expect(
                try await server.client.get("/v1/settings/decisioning", token: keyA).json?["follow_wallet_yellow"] as? Bool
                    == false)

            let a4 = try await decide(server, networkKey: networkA, ref: "a-4", device: 4)
            #expect(
                a4.json?["decision"] as? String == "require_verification"
                    && a4.json?["reasons"] as? [String] == ["low_device_score"])
            let aYellow = try await decide(server, networkKey: networkA, ref: "a-y", wallet: "require_verification")
            #expect(aYellow.json?["decision"] as? String == "approve")
            // Tenant B still has the standard rules.
            let b4 = try await decide(server, networkKey: networkB, ref: "b-4", device: 4)
            #expect(b4.json?["decision"] as? String == "approve")
            let bYellow = try await decide(server, networkKey: networkB, ref: "b-y", wallet: "require_verification")
            #expect(bYellow.json?["decision"] as? String == "require_verification")
        }
    }

    @Test(arguments: TestEngine.available)
    func incoherentSettingsAreRefusedAndChangeNothing(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, key) = try await server.makeTenant()
            let cases: [([String: Any], Int, String)] = [
                (["decline_at_or_below_score": 3], 422, "invalid_decision_rules"),
                (["minimum_device_score": 6], 422, "invalid_decision_rules"),
                (["webhook_timeout_ms": 60_000], 400, "invalid_parameter"),
                (["webhook_default_decision": "maybe"], 400, "invalid_request"),
                (["minimum_score": 2], 400, "unknown_field"),
                (["follow_wallet_red": "yes"], 400, "invalid_request"),
            ]
            for (body, status, code) in cases {
                let refused = try await put(server, "/v1/settings/decisioning", key: key, body)
                #expect(refused.status == status && refused.errorCode == code, "\(body): \(refused.text)")
            }
            let unchanged = try await server.client.get("/v1/settings/decisioning", token: key)
            #expect(
                unchanged.json?["minimum_device_score"] as? Int == 3 && unchanged.json?["decline_at_or_below_score"] as? Int == 1)
            #expect(unchanged.json?["webhook_timeout_ms"] as? Int == 2000)
        }
    }

    @Test(arguments: TestEngine.available)
    func theIssuersWebhookDecidesAndIsSigned(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(engine, clock: .live()) { server in
            let (tenantID, key) = try await server.makeTenant()
            _ = try await server.makeCard(apiKey: key, pan: Self.pan)
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            // An endpoint on `*` is never asked to decide: it did not say it can.
            let everything = WebhookReceiver()
            try await everything.start()
            defer { everything.stop() }
            _ = try await server.client.post("/v1/webhook-endpoints", token: key, json: ["url": everything.url, "events": ["*"]])
            let quiet = try await decide(server, networkKey: networkKey, ref: "ref-0")
            #expect(quiet.json?["decision"] as? String == "approve" && quiet.json?["reasons"] as? [String] == ["rules_approved"])

            let endpoint = try await server.client.post(
                "/v1/webhook-endpoints", token: key, json: ["url": receiver.url, "events": ["token.decision_requested"]])
            let secret = try #require(endpoint.json?["secret"] as? String)
            receiver.setAnswer(#"{"decision":"decline","reasons":["issuer_fraud_model"]}"#)
            let declined = try await decide(server, networkKey: networkKey, ref: "ref-1")
            #expect(declined.json?["decision"] as? String == "decline", "\(declined.text)")
            #expect(declined.json?["reasons"] as? [String] == ["issuer_decided", "issuer_fraud_model"])
            #expect(declined.json?["state"] as? String == "declined")

            let call = try #require(receiver.deliveries.last)
            try WebhookVerifier(secret: secret).verify(
                id: call.id, timestamp: call.timestamp, signatureHeader: call.signature, body: call.body, at: Date())
            let text = String(decoding: call.body, as: UTF8.self)
            #expect(!text.contains(Self.pan))
            let body = try #require(try JSONSerialization.jsonObject(with: call.body) as? [String: Any])
            #expect(body["type"] as? String == "token.decision_requested")
            let data = try #require(body["data"] as? [String: Any])
            #expect(data["network_token_ref"] as? String == "ref-1")
            #expect((data["proposed"] as? [String: Any])?["outcome"] as? String == "approve")
            #expect((data["risk"] as? [String: Any])?["device_score"] as? Int == 5)
            #expect((data["card"] as? [String: Any])?["last4"] as? String == "1111")

            // A red proposal is final: the issuer is not asked.
            let before = receiver.deliveries.count
            let red = try await decide(server, networkKey: networkKey, ref: "ref-2", wallet: "decline")
            #expect(red.json?["reasons"] as? [String] == ["wallet_recommends_decline"])
            #expect(receiver.deliveries.count == before)

            // An answer that is not a decision counts as no answer: the default applies.
            receiver.setAnswer(#"{"decision":"perhaps"}"#)
            let malformed = try await decide(server, networkKey: networkKey, ref: "ref-3")
            #expect(malformed.json?["decision"] as? String == "require_verification")
            #expect(malformed.json?["reasons"] as? [String] == ["issuer_decision_unavailable", "default_decision"])

            // Every call is in the delivery list like any webhook.
            let deliveries = try await server.client.get(
                "/v1/webhook-deliveries?endpoint_id=\(endpoint.json?["id"] as? String ?? "")", token: key)
            #expect((deliveries.json?["data"] as? [[String: Any]])?.count == 2)
            #expect(everything.deliveries.allSatisfy { !String(decoding: $0.body, as: UTF8.self).contains("decision_requested") })
        }
    }

    @Test func aSlowOrDownIssuerGetsTheConfiguredDefault() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(.sqlite, clock: .live()) { server in
            let (tenantID, key) = try await server.makeTenant()
            _ = try await server.makeCard(apiKey: key, pan: Self.pan)
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            _ = try await server.client.post(
                "/v1/webhook-endpoints", token: key, json: ["url": receiver.url, "events": ["token.decision_requested"]])
            let set = try await put(
                server, "/v1/settings/decisioning", key: key, ["webhook_timeout_ms": 800, "webhook_default_decision": "decline"])
            #expect(set.status == 200, "\(set.text)")

            // (Margins leave room for a loaded machine: the whole suite shares two cores.)
            receiver.setAnswer(#"{"decision":"approve"}"#)
            receiver.setDelay(.seconds(30))
            let started = ContinuousClock.now
            let slow = try await decide(server, networkKey: networkKey, ref: "ref-slow")
            let waited = ContinuousClock.now - started
            #expect(slow.json?["decision"] as? String == "decline", "\(slow.text)")
            #expect(slow.json?["reasons"] as? [String] == ["issuer_decision_timeout", "default_decision"])
            // Far less than the issuer's 30 s: the network was answered at the timeout, not after it
            // (the bound is loose: the whole suite, schemathesis and kill -9 runs share two cores).
            #expect(waited < .seconds(15), "the network waited \(waited)")

            receiver.setDelay(.zero)
            receiver.setDown(true)
            let down = try await decide(server, networkKey: networkKey, ref: "ref-down")
            #expect(down.json?["reasons"] as? [String] == ["issuer_decision_unavailable", "default_decision"])

            receiver.setDown(false)
            let answered = try await decide(server, networkKey: networkKey, ref: "ref-up")
            #expect(answered.json?["decision"] as? String == "approve")
            #expect(answered.json?["reasons"] as? [String] == ["issuer_decided"])
            // The network retries a request: the recorded decision comes back, the issuer is not asked again.
            let count = receiver.deliveries.count
            let retried = try await decide(server, networkKey: networkKey, ref: "ref-up")
            #expect(retried.json?["token_id"] as? String == answered.json?["token_id"] as? String)
            #expect(receiver.deliveries.count == count)
        }
    }

    @Test(arguments: TestEngine.available)
    func theNetworkAPIKeyIsSealedAndNeverComesBack(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, key) = try await server.makeTenant()
            let secret = "sbx_key_" + String(repeating: "s3cr3t", count: 4)
            let none = try await server.client.get("/v1/settings/network", token: key)
            #expect(none.status == 200 && none.json?["source"] as? String == "none" && none.json?["url"] == nil)
            let set = try await put(
                server, "/v1/settings/network", key: key, ["url": "http://127.0.0.1:9/net", "api_key": secret])
            #expect(set.status == 200 && set.json?["url"] as? String == "http://127.0.0.1:9/net", "\(set.text)")
            let read = try await server.client.get("/v1/settings/network", token: key)
            #expect(!set.text.contains(secret) && !read.text.contains(secret))

            let stored = try await server.services.handle.read { database in
                try await database.raw("SELECT network_api_key_vault_record AS record FROM tenant_settings").first()
                    .map { try $0.decode(column: "record", as: String.self) }
            }
            #expect(stored?.hasPrefix("pv1.") == true && stored?.contains(secret) == false)
            #expect(try await server.services.tokens.connectors.endpoint(tenantID: tenantID)?.0.apiKey == secret)

            for (body, code) in [
                (["url": "ftp://x", "api_key": secret], "outbound_url_invalid"),
                (["url": "http://127.0.0.1:9?x=1", "api_key": secret], "invalid_parameter"),
                (["url": "http://127.0.0.1:9", "api_key": "short"], "invalid_parameter"),
            ] {
                let refused = try await put(server, "/v1/settings/network", key: key, body)
                #expect(refused.status == 400 && refused.errorCode == code, "\(body): \(refused.text)")
            }
            #expect(logsContain(server, secret) == false)
        }
    }

    func logsContain(_ server: TestServer, _ text: String) -> Bool {
        server.logs.text.contains(text)
    }
}
