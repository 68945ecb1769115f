import Crypto
import Foundation
import Logging
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import Testing

@testable import ProvisioServer

@Suite struct WebhookStoreConformanceTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func seed(_ store: SQLProvisioStore, deliveries count: Int) async throws -> [String] {
        try await store.insertTenant(TenantRecord(id: "ten_a", name: "A", createdAt: Self.t0))
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
            let api = server.api(apiKey)
            let created = try await api.createWebhookEndpoint(body: .json(.init(url: receiver.url, events: [._ast_])))
                .created.body.json
            let endpointID = created.id
            let secret = try #require(created.secret)
            #expect(secret.hasPrefix("whsec_"))
            // The secret is only in the answer to creation.
            let listed = try await api.listWebhookEndpoints().ok.body.json
            #expect(listed.data.map(\.id) == [endpointID] && listed.data.allSatisfy { $0.secret == nil })
            #expect(!(server.answers.all.last?.text.contains(secret) ?? true))

            receiver.setDown(true)
            var eventIDs: [String] = []
            for _ in 0..<5 {
                let test = try await api.sendTestWebhook(path: .init(id: endpointID)).accepted.body.json
                eventIDs.append(test.id)
            }
            let worker = server.services.webhookWorker(
                sender: nil, policy: Self.fastPolicy, logger: Logger(label: "w"))
            let running = Task { try await worker.run() }
            defer { running.cancel() }

            // While it is down, deliveries are retried and each attempt is recorded.
            #expect(
                try await eventually {
                    let rows = try await api.listWebhookDeliveries(query: .init(endpointId: endpointID)).ok.body.json.data
                    return rows.count == 5 && rows.allSatisfy { $0.attemptCount >= 2 }
                })
            #expect(receiver.deliveries.isEmpty)

            receiver.setDown(false)
            #expect(
                try await eventually {
                    let rows = try await api.listWebhookDeliveries().ok.body.json.data
                    return rows.count == 5 && rows.allSatisfy { $0.state == .succeeded }
                })

            // Every event arrived, signed; a duplicate only ever repeats the same webhook-id.
            let got = receiver.deliveries
            #expect(Set(got.map(\.id)) == Set(eventIDs))
            let verifier = try WebhookVerifier(secret: secret)
            for item in got {
                try verifier.verify(
                    id: item.id, timestamp: item.timestamp, signatureHeader: item.signature, body: item.body, at: Date())
                let event = try WebhookEvent<WebhookPayload.Test>(item.body)
                #expect(event.type == "webhook.test")
                #expect(event.data.endpointID == endpointID)
            }

            // Attempts are listable: the 503s, then the success.
            let rows = try await api.listWebhookDeliveries().ok.body.json.data
            let deliveryID = try #require(rows.first?.id)
            let detail = try await api.getWebhookDelivery(path: .init(id: deliveryID)).ok.body.json
            let attempts = try #require(detail.attempts)
            #expect(attempts.count >= 3)
            #expect(attempts.dropLast().allSatisfy { $0.responseStatus == 503 })
            #expect(attempts.last?.responseStatus == 204)

            // Manual replay sends the same event (same webhook-id) again.
            let before = receiver.deliveries.count
            let replay = try await api.replayWebhookDelivery(path: .init(id: deliveryID)).ok.body.json
            #expect(replay.state == .pending)
            #expect(try await eventually { receiver.deliveries.count == before + 1 })
            #expect(receiver.deliveries.last?.id == detail.eventId)

            let unknown = try await api.replayWebhookDelivery(path: .init(id: "whd_nope"))
            #expect(unknown.refused(404, .webhookDeliveryNotFound), "\(unknown)")
            let badURL = try await api.createWebhookEndpoint(body: .json(.init(url: "ftp://x", events: [._ast_])))
            #expect(badURL.refused(400, .outboundUrlInvalid), "\(badURL)")
            // An event type outside the document's enum cannot be sent typed.
            let badEvent = try await server.raw.post(
                "/v1/webhook-endpoints", token: apiKey,
                body: ["url": .string(receiver.url), "events": ["token.exploded"]] as OpenAPIJSON)
            #expect(badEvent.refused(400, .invalidParameter), "\(badEvent.text)")
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
            let rows = try await server.api(apiKey).listWebhookDeliveries().ok.body.json.data
            #expect(rows.first?.state == .failed)
            #expect(rows.first?.attemptCount == 3)
            #expect(rows.first?.lastError?.contains("could not be reached") == true)
            #expect(try await worker.deliverDue() == 0)
        }
    }

    /// Ids that cannot be one are `invalid_parameter`, unknown ones the resource's not-found
    /// code; lists omit `next_cursor` without a next page and take only an integer `limit`.
    @Test func pathAndQueryErrorsKeepTheirCodes() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let longID = String(repeating: "w", count: 65)
            let refusals: [(String, Refusal?, Components.Schemas.ErrorCode)] = [
                ("test \(longID)", try await api.sendTestWebhook(path: .init(id: longID)).refusal, .invalidParameter),
                ("get \(longID)", try await api.getWebhookDelivery(path: .init(id: longID)).refusal, .invalidParameter),
                ("replay \(longID)", try await api.replayWebhookDelivery(path: .init(id: longID)).refusal, .invalidParameter),
                ("test whe_nope", try await api.sendTestWebhook(path: .init(id: "whe_nope")).refusal, .webhookEndpointNotFound),
                ("get whd_nope", try await api.getWebhookDelivery(path: .init(id: "whd_nope")).refusal, .webhookDeliveryNotFound),
                ("limit 101", try await api.listWebhookDeliveries(query: .init(limit: 101)).refusal, .invalidParameter),
                ("cursor bogus", try await api.listWebhookDeliveries(query: .init(cursor: "bogus")).refusal, .invalidCursor),
            ]
            for (what, refusal, code) in refusals {
                #expect(refusal?.code == code, "\(what): \(String(describing: refusal))")
            }
            // A limit that is not an integer cannot be sent typed.
            let limit = try await server.raw.get("/v1/webhook-deliveries?limit=x", token: apiKey)
            #expect(limit.error?.code == .invalidParameter, "\(limit.text)")
            // `next_cursor` is optional in the closed list types: absent here, so nil.
            let endpoints = try await api.listWebhookEndpoints().ok.body.json
            #expect(endpoints.data.isEmpty && endpoints.nextCursor == nil)
            let deliveries = try await api.listWebhookDeliveries(query: .init(endpointId: "whe_nope", limit: 5)).ok.body.json
            #expect(deliveries.data.isEmpty && deliveries.nextCursor == nil)
        }
    }
}
