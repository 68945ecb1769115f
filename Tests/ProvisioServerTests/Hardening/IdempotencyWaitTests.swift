import Foundation
import HummingbirdTesting
import ProvisioAPI
import ProvisioCore
import Testing

@testable import ProvisioServer

/// A duplicate that arrives while the first request with its `Idempotency-Key` is still running
/// waits for it without reading the database meanwhile, and is woken as soon as it ends.
@Suite struct IdempotencyWaitTests {
    /// Sends `body` with `key` over a connection of its own (so it runs alongside the others) and
    /// notes when the answer arrived.
    static func send(port: Int, path: String, token: String, body: Data, key: String) async throws -> (
        response: RawClient.Response, answeredAt: ContinuousClock.Instant
    ) {
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
        client.connect()
        do {
            let response = try await RawClient(connection: client).send(
                .post, path, token: token, body: body, headers: ["Idempotency-Key": key])
            let answeredAt = ContinuousClock.now
            try await client.shutdown()
            return (response, answeredAt)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Polls `condition` (in memory, no database) until it holds; false after `seconds`.
    static func eventually(_ seconds: Double = 10, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// How many times a key was claimed (read, for a duplicate), counted from the statements the
    /// real SQLite database logged (their text, never their values): each claim starts with one
    /// INSERT. Only the two requests under test claim keys once they start.
    static func claims(_ server: TestServer) -> Int {
        server.logs.count(containing: "INSERT INTO idempotency_keys")
    }

    @Test func aDuplicateIsAnsweredAsSoonAsTheFirstRequestEndsWithoutPolling() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(.sqlite, clock: .live()) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            _ = try await server.makeCard(apiKey: apiKey)
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            let api = server.api(apiKey)
            _ = try await api.createWebhookEndpoint(
                body: .json(.init(url: receiver.url, events: [.token_decisionRequested]))
            ).created
            let settings = try await api.updateDecisioningSettings(body: .json(.init(webhookTimeoutMs: 5000)))
            #expect(settings.status == 200, "\(settings)")
            // The first request is slow: the issuer takes 3 s to decide.
            receiver.setAnswer(#"{"decision":"approve"}"#)
            receiver.setDelay(.seconds(3))

            let key = "wake-\(UUID().uuidString.prefix(8))"
            // Raw, over connections of their own: the duplicate runs alongside, and its replay is
            // compared byte for byte.
            let body = try APIJSON.encode(TokenAPITests.networkTokenRequest(ref: "ref-wake"))
            let port = try #require(server.raw.port)
            let path = "/v1/network/token-requests"
            let before = Self.claims(server)
            let first = Task { try await Self.send(port: port, path: path, token: networkKey, body: body, key: key) }
            // It holds the key once it is asking the issuer.
            #expect(try await Self.eventually { receiver.deliveries.count == 1 })
            let second = Task { try await Self.send(port: port, path: path, token: networkKey, body: body, key: key) }
            // The duplicate read the key once, found it in progress, and waits ...
            #expect(try await Self.eventually { (Self.claims(server) - before) == 2 })
            try await Task.sleep(for: .seconds(1))
            // ... without reading it again while the first request runs (10 ms polling would be ~100 reads).
            #expect((Self.claims(server) - before) == 2)

            let (answer, answeredAt) = try await first.value
            let (replayed, replayedAt) = try await second.value
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try answer.decode(Components.Schemas.NetworkDecision.self).decision == .approve, "\(answer.text)")
            #expect(replayed.status == answer.status && replayed.body == answer.body)
            #expect(replayed.header("Idempotent-Replayed") == "true")
            // Woken when the first ended, long before the 15 s wait limit (a loose bound: two cores,
            // whole suite); the read count below is what shows there was no polling.
            #expect(replayedAt - answeredAt < .seconds(5), "answered \(replayedAt - answeredAt) after the first")
            // One claim by the first request, two reads by the duplicate (before waiting and once woken).
            #expect((Self.claims(server) - before) == 3)
            #expect(receiver.deliveries.count == 1, "the issuer was asked once")
        }
    }

    @Test func aDuplicateWakesAndRunsTheRequestWhenTheFirstFailsWithA5xx() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(.sqlite, clock: .live()) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            _ = try await server.makeCard(apiKey: apiKey)
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            let decided = try await TokenAPITests.decide(
                server, networkKey: networkKey,
                TokenAPITests.networkTokenRequest(ref: "ref-5xx", recommendation: .requireVerification)
            ).ok.body.json
            #expect(decided.state == .pendingVerification)
            _ = try await server.api(apiKey).createWebhookEndpoint(
                body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
            ).created
            // The first relay is slow and fails: after 2 s the issuer answers something unusable (502).
            receiver.setAnswer(#"{"sent": true}"#)
            receiver.setDelay(.seconds(2))

            let key = "otp-\(UUID().uuidString.prefix(8))"
            let body = try APIJSON.encode(Components.Schemas.NetworkOTPRequest(code: "482913"))
            let port = try #require(server.raw.port)
            let path = "/v1/network/tokens/ref-5xx/otp"
            let before = Self.claims(server)
            let first = Task { try await Self.send(port: port, path: path, token: networkKey, body: body, key: key) }
            #expect(try await Self.eventually { receiver.deliveries.count == 1 })
            // The issuer is fine again for whoever relays next.
            receiver.setDelay(.zero)
            receiver.setAnswer(#"{"channels":[{"type":"sms","masked":"+1 ••• ••• 4821"}]}"#)
            let second = Task { try await Self.send(port: port, path: path, token: networkKey, body: body, key: key) }
            #expect(try await Self.eventually { (Self.claims(server) - before) == 2 })

            let (failed, failedAt) = try await first.value
            let (relayed, relayedAt) = try await second.value
            #expect(failed.refused(502, .otpRelayFailed), "\(failed.text)")
            // The 5xx released the key; the woken duplicate claimed it and ran the relay itself.
            #expect(relayed.status == 200 && relayed.header("Idempotent-Replayed") == nil, "\(relayed.text)")
            #expect(try relayed.decode(Components.Schemas.OTPChannels.self).channels.map(\.masked) == ["+1 ••• ••• 4821"])
            // Woken, not left to its 15 s wait limit (after which it would also claim the key): the
            // bound is that limit's, not a speed, so a loaded machine does not fail it.
            #expect(relayedAt - failedAt < .seconds(12), "answered \(relayedAt - failedAt) after the first")
            #expect((Self.claims(server) - before) == 3)
            #expect(receiver.deliveries.count == 2)
        }
    }

    // MARK: The registry

    static let claim = IdempotencyClaims.Claim(scope: "ten_1", key: "k", token: "idl_1")

    @Test func everyWaiterWakesWhenTheClaimEnds() async throws {
        let claims = IdempotencyClaims()
        claims.begin(Self.claim)
        let deadline = ContinuousClock.now + .seconds(60)
        let waiters = (0..<3).map { _ in Task { try await claims.wait(for: Self.claim, until: deadline) } }
        #expect(try await Self.eventually { claims.waiterCount(for: Self.claim) == 3 })
        claims.end(Self.claim)
        for waiter in waiters { #expect(try await waiter.value == .ended) }
        // A duplicate that read the key just before the end still reads again at once.
        #expect(try await claims.wait(for: Self.claim, until: deadline) == .ended)
    }

    @Test func aClaimNotHeldHereIsHeldElsewhere() async throws {
        let claims = IdempotencyClaims()
        #expect(try await claims.wait(for: Self.claim, until: .now + .seconds(60)) == .heldElsewhere)
    }

    @Test func theDeadlineEndsTheWait() async throws {
        let claims = IdempotencyClaims()
        claims.begin(Self.claim)
        #expect(try await claims.wait(for: Self.claim, until: .now + .milliseconds(50)) == .deadline)
        #expect(claims.waiterCount(for: Self.claim) == 0)
        #expect(try await claims.wait(for: Self.claim, until: .now - .seconds(1)) == .deadline)
    }

    @Test func aCancelledWaiterStopsWaiting() async throws {
        let claims = IdempotencyClaims()
        claims.begin(Self.claim)
        let waiter = Task { try await claims.wait(for: Self.claim, until: .now + .seconds(60)) }
        #expect(try await Self.eventually { claims.waiterCount(for: Self.claim) == 1 })
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(claims.waiterCount(for: Self.claim) == 0)
        // Cancelled before it even started waiting.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await claims.wait(for: Self.claim, until: .now + .seconds(60))
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(claims.waiterCount(for: Self.claim) == 0)
    }
}
