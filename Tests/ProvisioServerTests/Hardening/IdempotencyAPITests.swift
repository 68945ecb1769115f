import Foundation
import HummingbirdTesting
import ProvisioAPI
import ProvisioCore
import Testing

/// Replays are compared byte for byte, so these requests go raw (with the generated request
/// types as bodies) and their answers are read as the generated types.
@Suite struct IdempotencyAPITests {
    static let cardRequest = Components.Schemas.CreateCardRequest(
        customerRef: "cust_1", pan: "4111111111111111", expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane")

    @Test(arguments: TestEngine.available)
    func sameKeySameBodyReplaysTheFirstAnswer(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let first = try await server.raw.post(
                "/v1/cards", token: apiKey, body: Self.cardRequest, headers: ["Idempotency-Key": "key-1"])
            #expect(first.status == 201)
            #expect(first.header("Idempotent-Replayed") == nil)
            let card = try first.decode(Components.Schemas.Card.self)
            let second = try await server.raw.post(
                "/v1/cards", token: apiKey, body: Self.cardRequest, headers: ["Idempotency-Key": "key-1"])
            #expect(second.status == 201)
            #expect(second.header("Idempotent-Replayed") == "true")
            #expect(second.body == first.body)
            #expect(try second.decode(Components.Schemas.Card.self) == card)
            let list = try await server.api(apiKey).listCards(query: .init(customerRef: "cust_1")).ok.body.json
            #expect(list.data.map(\.id) == [card.id])

            var other = Self.cardRequest
            other.cardholderName = "Someone Else"
            let reused = try await server.raw.post(
                "/v1/cards", token: apiKey, body: other, headers: ["Idempotency-Key": "key-1"])
            #expect(reused.refused(422, .idempotencyKeyReused), "\(reused.text)")
            let otherPath = try await server.raw.post(
                "/v1/mobile-sessions", token: apiKey, body: Self.cardRequest, headers: ["Idempotency-Key": "key-1"])
            #expect(otherPath.refused(422, .idempotencyKeyReused), "\(otherPath.text)")
        }
    }

    @Test(arguments: TestEngine.available)
    func errorsAreReplayedToo(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            var bad = Self.cardRequest
            bad.pan = "4111111111111112"
            let first = try await server.raw.post("/v1/cards", token: apiKey, body: bad, headers: ["Idempotency-Key": "k-err"])
            #expect(first.refused(400, .invalidPan), "\(first.text)")
            let second = try await server.raw.post(
                "/v1/cards", token: apiKey, body: bad, headers: ["Idempotency-Key": "k-err"])
            #expect(second.status == 400 && second.header("Idempotent-Replayed") == "true")
            #expect(second.error?.code == first.error?.code)
            // The replayed error names this request, not the first one.
            let firstID = try #require(first.error?.requestId)
            let secondID = try #require(second.error?.requestId)
            #expect(firstID != secondID && secondID == second.header("X-Request-Id"))
            // The generated client percent-encodes header values, so an invalid key goes raw.
            let invalidKey = try await server.raw.post(
                "/v1/cards", token: apiKey, body: Self.cardRequest, headers: ["Idempotency-Key": "has space"])
            #expect(invalidKey.refused(400, .idempotencyKeyInvalid), "\(invalidKey.text)")
        }
    }

    @Test(arguments: TestEngine.available)
    func keysAreScopedToTheTenantAndTheCustomer(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, keyA) = try await server.makeTenant("A")
            let (_, keyB) = try await server.makeTenant("B")
            let a = try await server.raw.post(
                "/v1/cards", token: keyA, body: Self.cardRequest, headers: ["Idempotency-Key": "shared"])
            var other = Self.cardRequest
            other.customerRef = "cust_b"
            let b = try await server.raw.post("/v1/cards", token: keyB, body: other, headers: ["Idempotency-Key": "shared"])
            #expect(a.status == 201 && b.status == 201)
            #expect(b.header("Idempotent-Replayed") == nil)
            #expect(try a.decode(Components.Schemas.Card.self).id != b.decode(Components.Schemas.Card.self).id)

            // Two customers of one tenant never see each other's replays.
            let id1 = try await server.makeCard(apiKey: keyA, customerRef: "alice").id
            let id2 = try await server.makeCard(apiKey: keyA, customerRef: "bob").id
            let alice = try await server.api(keyA).createMobileSession(body: .json(.init(customerRef: "alice")))
                .created.body.json.token
            let bob = try await server.api(keyA).createMobileSession(body: .json(.init(customerRef: "bob")))
                .created.body.json.token
            let body = try server.applePayRequest()
            let forAlice = try await server.raw.post(
                "/v1/mobile/cards/\(id1)/provisioning/apple-pay", token: alice, body: body, headers: ["Idempotency-Key": "same"])
            let forBob = try await server.raw.post(
                "/v1/mobile/cards/\(id2)/provisioning/apple-pay", token: bob, body: body, headers: ["Idempotency-Key": "same"])
            #expect(forAlice.status == 200 && forBob.status == 200)
            #expect(forBob.header("Idempotent-Replayed") == nil)
            #expect(forAlice.body != forBob.body)
            #expect(
                try forAlice.decode(Components.Schemas.ApplePayPayload.self)
                    != forBob.decode(Components.Schemas.ApplePayPayload.self))
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentDuplicatesRunOnce(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let port = try #require(server.raw.port)
            // Separate connections, so the duplicates really arrive together.
            let responses = try await withThrowingTaskGroup(of: RawClient.Response.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
                        client.connect()
                        let response = try await RawClient(connection: client).post(
                            "/v1/cards", token: apiKey, body: Self.cardRequest, headers: ["Idempotency-Key": "concurrent"])
                        try await client.shutdown()
                        return response
                    }
                }
                return try await group.reduce(into: [RawClient.Response]()) { $0.append($1) }
            }
            #expect(responses.allSatisfy { $0.status == 201 }, "\(responses.map(\.status))")
            #expect(Set(responses.map(\.body)).count == 1)
            #expect(Set(try responses.map { try $0.decode(Components.Schemas.Card.self).id }).count == 1)
            #expect(responses.filter { $0.header("Idempotent-Replayed") == nil }.count == 1)
            let list = try await server.api(apiKey).listCards(query: .init(customerRef: "cust_1")).ok.body.json
            #expect(list.data.count == 1)
        }
    }
}
