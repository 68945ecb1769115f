import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import Testing

@testable import ProvisioServer

@Suite struct WebhookStoreConformanceTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func seed(_ store: SQLProvisioStore, deliveries count: Int) async throws -> [String] {
        try await store.insertTenant(TenantRecord(id: "ten_a", name: "A", apiKeyHash: "h", createdAt: Self.t0))
        try await store.insertWebhookEndpoint(
            WebhookEndpointRecord(
                id: "whe_1", tenantID: "ten_a", url: "http://127.0.0.1:1/x", events: ["*"], secretVaultRecord: "pv1.k.AA.BB",
                createdAt: Self.t0))
        var ids: [String] = []
        for index in 0..<count {
            let event = WebhookEventRecord(
                id: "msg_\(index)", tenantID: "ten_a", type: "webhook.test", payload: "{}", createdAt: Self.t0)
            let delivery = WebhookDeliveryRecord(
                id: "whd_\(index)", tenantID: "ten_a", eventID: event.id, endpointID: "whe_1", state: .pending, attemptCount: 0,
                nextAttemptAt: Self.t0, lastResponseStatus: nil, lastError: nil,
                createdAt: Self.t0.addingTimeInterval(Double(index)),
                updatedAt: Self.t0)
            try await store.enqueue(event: event, deliveries: [delivery])
            ids.append(delivery.id)
        }
        return ids
    }

    @Test(arguments: TestEngine.available)
    func concurrentClaimersNeverShareADelivery(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            let ids = try await seed(store, deliveries: 30)
            let now = Self.t0.addingTimeInterval(100)
            let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await store.claimDueWebhookDeliveries(now: now, leaseUntil: now.addingTimeInterval(60), limit: 7)
                            .map(\.delivery.id)
                    }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(claimed.count == Set(claimed).count, "a delivery was claimed twice")
            #expect(Set(claimed) == Set(ids))
            // Leased: nothing is due until the lease runs out, then everything is again.
            #expect(try await store.claimDueWebhookDeliveries(now: now, leaseUntil: now, limit: 50).isEmpty)
            let later = now.addingTimeInterval(61)
            let reclaimed = try await store.claimDueWebhookDeliveries(
                now: later, leaseUntil: later.addingTimeInterval(60), limit: 50)
            #expect(reclaimed.count == 30)
            #expect(reclaimed.first?.event.id.hasPrefix("msg_") == true && reclaimed.first?.endpoint.id == "whe_1")
        }
    }

    @Test(arguments: TestEngine.available)
    func attemptsAreRecordedAndDeliveriesReplayed(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            let ids = try await seed(store, deliveries: 3)
            var delivery = try #require(try await store.webhookDelivery(id: ids[0], tenantID: "ten_a"))
            delivery.state = .failed
            delivery.attemptCount = 12
            delivery.lastResponseStatus = 500
            delivery.lastError = "HTTP 500"
            try await store.recordWebhookAttempt(
                WebhookAttemptRecord(
                    id: "wha_1", deliveryID: delivery.id, attemptedAt: Self.t0, responseStatus: 500, error: "HTTP 500",
                    durationMilliseconds: 12),
                delivery: delivery)
            #expect(try await store.webhookDelivery(id: ids[0], tenantID: "ten_a") == delivery)
            #expect(try await store.webhookAttempts(deliveryID: ids[0]).map(\.responseStatus) == [500])
            #expect(try await store.webhookDelivery(id: ids[0], tenantID: "ten_b") == nil)

            let replayed = try #require(
                try await store.replayWebhookDelivery(id: ids[0], tenantID: "ten_a", at: Self.t0.addingTimeInterval(5)))
            #expect(
                replayed.state == .pending && replayed.attemptCount == 0
                    && replayed.nextAttemptAt == Self.t0.addingTimeInterval(5))
            #expect(try await store.replayWebhookDelivery(id: ids[0], tenantID: "ten_b", at: Self.t0) == nil)

            let first = try await store.webhookDeliveries(tenantID: "ten_a", endpointID: "whe_1", cursor: nil, limit: 2)
            #expect(first.items.map(\.id) == Array(ids.prefix(2)))
            let second = try await store.webhookDeliveries(tenantID: "ten_a", endpointID: nil, cursor: first.nextCursor, limit: 2)
            #expect(second.items.map(\.id) == [ids[2]] && second.nextCursor == nil)
        }
    }
}

@Suite struct WebhookDeliveryTests {
    static let fastPolicy = WebhookDeliveryPolicy(
        baseDelay: 0.05, maximumDelay: 0.2, maximumAttempts: 100, requestTimeout: .seconds(5), lease: 10,
        pollInterval: .milliseconds(20))

    @Test func backoffDoublesAndIsCapped() {
        let policy = WebhookDeliveryPolicy.standard
        #expect((1...6).map(policy.delay(afterFailedAttempts:)) == [5, 10, 20, 40, 80, 160])
        #expect(policy.delay(afterFailedAttempts: 30) == 3600)
    }

    /// Polls until `condition` holds (bounded).
    func eventually(_ seconds: Double = 20, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(25))
        }
        return false
    }

    @Test(arguments: TestEngine.available)
    func receiverDownForAWhileGetsEverythingSignedOnceRecovered(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(engine, clock: .live()) { server in
            let (_, apiKey) = try await server.makeTenant()
            let created = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": receiver.url, "events": ["*"]])
            #expect(created.status == 201, "\(created.text)")
            let endpointID = try #require(created.json?["id"] as? String)
            let secret = try #require(created.json?["secret"] as? String)
            #expect(secret.hasPrefix("whsec_"))
            let listed = try await server.client.get("/v1/webhook-endpoints", token: apiKey)
            #expect(!listed.text.contains(secret) && listed.text.contains(endpointID))

            receiver.setDown(true)
            var eventIDs: [String] = []
            for _ in 0..<5 {
                let test = try await server.client.post(
                    "/v1/webhook-endpoints/\(endpointID)/test", token: apiKey, json: [String: Any]())
                #expect(test.status == 202)
                eventIDs.append(try #require(test.json?["id"] as? String))
            }
            let worker = server.services.webhookWorker(
                sender: nil, policy: Self.fastPolicy, logger: Logger(label: "w"))
            let running = Task { try await worker.run() }
            defer { running.cancel() }

            // While it is down, deliveries are retried and each attempt is recorded.
            #expect(
                try await eventually {
                    let deliveries = try await server.client.get(
                        "/v1/webhook-deliveries?endpoint_id=\(endpointID)", token: apiKey)
                    let rows = deliveries.json?["data"] as? [[String: Any]] ?? []
                    return rows.count == 5 && rows.allSatisfy { ($0["attempt_count"] as? Int ?? 0) >= 2 }
                })
            #expect(receiver.deliveries.isEmpty)

            receiver.setDown(false)
            #expect(
                try await eventually {
                    let rows =
                        try await server.client.get("/v1/webhook-deliveries", token: apiKey).json?["data"] as? [[String: Any]]
                        ?? []
                    return rows.count == 5 && rows.allSatisfy { $0["state"] as? String == "succeeded" }
                })

            // Every event arrived, signed; a duplicate only ever repeats the same webhook-id.
            let got = receiver.deliveries
            #expect(Set(got.map(\.id)) == Set(eventIDs))
            let verifier = try WebhookVerifier(secret: secret)
            for item in got {
                try verifier.verify(
                    id: item.id, timestamp: item.timestamp, signatureHeader: item.signature, body: item.body, at: Date())
                let body = try #require(try JSONSerialization.jsonObject(with: item.body) as? [String: Any])
                #expect(body["type"] as? String == "webhook.test")
                #expect((body["data"] as? [String: String])?["endpoint_id"] == endpointID)
            }

            // Attempts are listable: the 503s, then the success.
            let rows =
                try await server.client.get("/v1/webhook-deliveries", token: apiKey).json?["data"] as? [[String: Any]] ?? []
            let deliveryID = try #require(rows.first?["id"] as? String)
            let detail = try await server.client.get("/v1/webhook-deliveries/\(deliveryID)", token: apiKey)
            let attempts = try #require(detail.json?["attempts"] as? [[String: Any]])
            #expect(attempts.count >= 3)
            #expect(attempts.dropLast().allSatisfy { $0["response_status"] as? Int == 503 })
            #expect(attempts.last?["response_status"] as? Int == 204)

            // Manual replay sends the same event (same webhook-id) again.
            let before = receiver.deliveries.count
            let replay = try await server.client.post(
                "/v1/webhook-deliveries/\(deliveryID)/replay", token: apiKey, json: [String: Any]())
            #expect(replay.status == 200 && replay.json?["state"] as? String == "pending")
            #expect(try await eventually { receiver.deliveries.count == before + 1 })
            #expect(receiver.deliveries.last?.id == detail.json?["event_id"] as? String)

            let unknown = try await server.client.post(
                "/v1/webhook-deliveries/whd_nope/replay", token: apiKey, json: [String: Any]())
            #expect(unknown.status == 404 && unknown.errorCode == "webhook_delivery_not_found")
            let badURL = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": "ftp://x", "events": ["*"]])
            #expect(badURL.status == 400 && badURL.errorCode == "outbound_url_invalid")
            let badEvent = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": receiver.url, "events": ["token.exploded"]])
            #expect(badEvent.status == 400 && badEvent.errorCode == "invalid_parameter")
        }
    }

    @Test(arguments: TestEngine.available)
    func pendingDeliveriesSurviveARestart(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestDatabase.with(engine) { database in
            let keys = ProvisioKeys.generate()
            func services() -> ServerServices {
                ServerServices(
                    handle: database.handle, keys: keys,
                    chainValidator: CachingChainValidator(validator: .production()),
                    networkKey: P256.KeyAgreement.PrivateKey().publicKey, networkKeyID: "n",
                    clock: SystemTimeSource())
            }
            // The first "process" publishes and stops before delivering anything.
            let first = services()
            let (tenant, _) = try await first.access.createTenant(name: "Restart Bank")
            let (_, secret) = try await first.webhooks.createEndpoint(
                tenantID: tenant.id, url: receiver.url, events: ["webhook.test"])
            let endpoint = try #require(try await first.webhooks.endpoints(tenantID: tenant.id).first)
            let event = try await first.webhooks.sendTestEvent(endpointID: endpoint.id, tenantID: tenant.id)

            // The second one, started on the same database, delivers it.
            let second = services()
            let worker = second.webhookWorker(sender: nil, policy: Self.fastPolicy, logger: Logger(label: "w"))
            #expect(try await worker.deliverDue() == 1)
            #expect(receiver.deliveries.map(\.id) == [event.id])
            try WebhookVerifier(secret: secret).verify(
                id: event.id, timestamp: receiver.deliveries[0].timestamp, signatureHeader: receiver.deliveries[0].signature,
                body: receiver.deliveries[0].body, at: Date())
            #expect(try await worker.deliverDue() == 0)
        }
    }

    @Test func anUnreachableEndpointFailsAfterTheLastAttemptAndStaysReplayable() async throws {
        try await TestServer.run(.sqlite, clock: .live()) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            // Nothing listens on port 1.
            let (endpoint, _) = try await server.services.webhooks.createEndpoint(
                tenantID: tenantID, url: "http://127.0.0.1:1/x", events: ["*"])
            _ = try await server.services.webhooks.sendTestEvent(endpointID: endpoint.id, tenantID: tenantID)
            var policy = Self.fastPolicy
            policy.maximumAttempts = 3
            policy.baseDelay = 0
            // AsyncHTTPClient keeps retrying a refused connect until the request deadline.
            policy.requestTimeout = .seconds(1)
            let worker = server.services.webhookWorker(sender: nil, policy: policy, logger: Logger(label: "w"))
            for _ in 0..<3 { try await worker.deliverDue() }
            let rows =
                try await server.client.get("/v1/webhook-deliveries", token: apiKey).json?["data"] as? [[String: Any]] ?? []
            #expect(rows.first?["state"] as? String == "failed")
            #expect(rows.first?["attempt_count"] as? Int == 3)
            #expect((rows.first?["last_error"] as? String)?.contains("could not be reached") == true)
            #expect(try await worker.deliverDue() == 0)
        }
    }

    /// Ids that cannot be one are `invalid_parameter`, unknown ones the resource's not-found
    /// code; lists omit `next_cursor` without a next page and take only an integer `limit`.
    @Test func pathAndQueryErrorsKeepTheirCodes() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let longID = String(repeating: "w", count: 65)
            let cases: [(String, String, String)] = [
                ("POST", "/v1/webhook-endpoints/\(longID)/test", "invalid_parameter"),
                ("GET", "/v1/webhook-deliveries/\(longID)", "invalid_parameter"),
                ("POST", "/v1/webhook-deliveries/\(longID)/replay", "invalid_parameter"),
                ("POST", "/v1/webhook-endpoints/whe_nope/test", "webhook_endpoint_not_found"),
                ("GET", "/v1/webhook-deliveries/whd_nope", "webhook_delivery_not_found"),
                ("GET", "/v1/webhook-deliveries?limit=x", "invalid_parameter"),
                ("GET", "/v1/webhook-deliveries?limit=101", "invalid_parameter"),
                ("GET", "/v1/webhook-deliveries?cursor=bogus", "invalid_cursor"),
            ]
            for (method, path, code) in cases {
                let response =
                    method == "GET"
                    ? try await server.client.get(path, token: apiKey)
                    : try await server.client.post(path, token: apiKey, json: [String: Any]())
                #expect(response.errorCode == code, "\(method) \(path): \(response.text)")
            }
            for path in ["/v1/webhook-endpoints", "/v1/webhook-deliveries?endpoint_id=whe_nope&limit=5"] {
                let list = try await server.client.get(path, token: apiKey)
                #expect(list.status == 200 && (list.json?["data"] as? [Any])?.isEmpty == true, "\(list.text)")
                #expect(list.json?.keys.sorted() == ["data"], "\(list.text)")
            }
        }
    }
}
