import Foundation
import HummingbirdTesting
import ProvisioCore
import Testing

@Suite struct IdempotencyAPITests {
    static var cardBody: [String: Any] {
        ["customer_ref": "cust_1", "pan": "4111111111111111", "expiry_month": 12, "expiry_year": 2030, "cardholder_name": "Jane"]
    }

    @Test(arguments: TestEngine.available)
    func sameKeySameBodyReplaysTheFirstAnswer(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let first = try await server.client.post(
                "/v1/cards", token: apiKey, json: Self.cardBody, headers: ["Idempotency-Key": "key-1"])
            #expect(first.status == 201)
            #expect(first.header("Idempotent-Replayed") == nil)
            let second = try await server.client.post(
                "/v1/cards", token: apiKey, json: Self.cardBody, headers: ["Idempotency-Key": "key-1"])
            #expect(second.status == 201)
            #expect(second.header("Idempotent-Replayed") == "true")
            #expect(second.body == first.body)
            let list = try await server.client.get("/v1/cards?customer_ref=cust_1", token: apiKey)
            #expect((list.json?["data"] as? [Any])?.count == 1)

            var other = Self.cardBody
            other["cardholder_name"] = "Someone Else"
            let reused = try await server.client.post(
                "/v1/cards", token: apiKey, json: other, headers: ["Idempotency-Key": "key-1"])
            #expect(reused.status == 422 && reused.errorCode == "idempotency_key_reused")
            let otherPath = try await server.client.post(
                "/v1/mobile-sessions", token: apiKey, json: Self.cardBody, headers: ["Idempotency-Key": "key-1"])
            #expect(otherPath.status == 422 && otherPath.errorCode == "idempotency_key_reused")
        }
    }

    @Test(arguments: TestEngine.available)
    func errorsAreReplayedToo(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            var bad = Self.cardBody
            bad["pan"] = "4111111111111112"
            let first = try await server.client.post("/v1/cards", token: apiKey, json: bad, headers: ["Idempotency-Key": "k-err"])
            #expect(first.status == 400 && first.errorCode == "invalid_pan")
            let second = try await server.client.post(
                "/v1/cards", token: apiKey, json: bad, headers: ["Idempotency-Key": "k-err"])
            #expect(second.status == 400 && second.header("Idempotent-Replayed") == "true")
            #expect(second.errorCode == first.errorCode)
            // The replayed error names this request, not the first one.
            let firstID = try #require((first.json?["error"] as? [String: Any])?["request_id"] as? String)
            let secondID = try #require((second.json?["error"] as? [String: Any])?["request_id"] as? String)
            #expect(firstID != secondID && secondID == second.header("X-Request-Id"))
            let invalidKey = try await server.client.post(
                "/v1/cards", token: apiKey, json: Self.cardBody, headers: ["Idempotency-Key": "has space"])
            #expect(invalidKey.status == 400 && invalidKey.errorCode == "idempotency_key_invalid")
        }
    }

    @Test(arguments: TestEngine.available)
    func keysAreScopedToTheTenantAndTheCustomer(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, keyA) = try await server.makeTenant("A")
            let (_, keyB) = try await server.makeTenant("B")
            let a = try await server.client.post(
                "/v1/cards", token: keyA, json: Self.cardBody, headers: ["Idempotency-Key": "shared"])
            var other = Self.cardBody
            other["customer_ref"] = "cust_b"
            let b = try await server.client.post("/v1/cards", token: keyB, json: other, headers: ["Idempotency-Key": "shared"])
            #expect(a.status == 201 && b.status == 201)
            #expect(b.header("Idempotent-Replayed") == nil)
            #expect(a.json?["id"] as? String != b.json?["id"] as? String)

            // Two customers of one tenant never see each other's replays.
            let id1 = try await server.makeCard(apiKey: keyA, customerRef: "alice")["id"] as! String
            let id2 = try await server.makeCard(apiKey: keyA, customerRef: "bob")["id"] as! String
            let alice = try #require(
                try await server.client.post("/v1/mobile-sessions", token: keyA, json: ["customer_ref": "alice"]).json?["token"]
                    as? String)
            let bob = try #require(
                try await server.client.post("/v1/mobile-sessions", token: keyA, json: ["customer_ref": "bob"]).json?["token"]
                    as? String)
            let body = try server.applePayBody()
            let forAlice = try await server.client.post(
                "/v1/mobile/cards/\(id1)/provisioning/apple-pay", token: alice, json: body, headers: ["Idempotency-Key": "same"])
            let forBob = try await server.client.post(
                "/v1/mobile/cards/\(id2)/provisioning/apple-pay", token: bob, json: body, headers: ["Idempotency-Key": "same"])
            #expect(forAlice.status == 200 && forBob.status == 200)
            #expect(forBob.header("Idempotent-Replayed") == nil)
            #expect(forAlice.body != forBob.body)
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentDuplicatesRunOnce(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let port = try #require(server.client.port)
            // Separate connections, so the duplicates really arrive together.
            let responses = try await withThrowingTaskGroup(of: APIClient.Response.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
                        client.connect()
                        let response = try await APIClient(connection: client).post(
                            "/v1/cards", token: apiKey, json: Self.cardBody, headers: ["Idempotency-Key": "concurrent"])
                        try await client.shutdown()
                        return response
                    }
                }
                return try await group.reduce(into: [APIClient.Response]()) { $0.append($1) }
            }
            #expect(responses.allSatisfy { $0.status == 201 }, "\(responses.map(\.status))")
            #expect(Set(responses.map(\.body)).count == 1)
            #expect(responses.filter { $0.header("Idempotent-Replayed") == nil }.count == 1)
            let list = try await server.client.get("/v1/cards?customer_ref=cust_1", token: apiKey)
            #expect((list.json?["data"] as? [Any])?.count == 1)
        }
    }
}
