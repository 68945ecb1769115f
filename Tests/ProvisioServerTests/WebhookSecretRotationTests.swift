import Foundation
import Logging
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import Testing

@testable import ProvisioServer

/// Rotating an endpoint's signing secret: during the overlap every webhook carries a signature
/// for each secret, so a receiver still on the old one and one already on the new one both
/// accept it; after it (or with no overlap) only the new secret signs.
@Suite struct WebhookSecretRotationTests {
    @Test func thePreviousSecretSignsUntilTheOverlapEnds() {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        var endpoint = WebhookEndpointRecord(
            id: "whe_1", tenantID: "ten_a", url: "https://hooks.example/x", events: ["*"], secretVaultRecord: "new",
            createdAt: t0)
        #expect(endpoint.signingSecretRecords(at: t0) == ["new"])
        endpoint.previousSecretVaultRecord = "old"
        endpoint.previousSecretExpiresAt = t0.addingTimeInterval(60)
        #expect(endpoint.signingSecretRecords(at: t0.addingTimeInterval(59)) == ["new", "old"])
        #expect(endpoint.signingSecretRecords(at: t0.addingTimeInterval(60)) == ["new"])
    }

    @Test(arguments: TestEngine.available)
    func receiversOnEitherSecretAcceptDuringTheOverlap(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(engine, clock: .live()) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let created = try await api.createWebhookEndpoint(body: .json(.init(url: receiver.url, events: [._ast_])))
                .created.body.json
            let first = try #require(created.secret)
            let rotated = try await api.rotateWebhookSecret(
                path: .init(id: created.id), body: .json(.init(overlapSeconds: 3600))
            ).ok.body.json
            let second = try #require(rotated.secret)
            #expect(second != first && second.hasPrefix("whsec_"))
            let overlapEnd = try #require(rotated.previousSecretExpiresAt)
            #expect(abs(overlapEnd.timeIntervalSinceNow - 3600) < 5)
            // The secret is never listed.
            #expect(try await api.listWebhookEndpoints().ok.body.json.data.allSatisfy { $0.secret == nil })

            let worker = server.services.webhookWorker(
                sender: nil, policy: WebhookDeliveryTests.fastPolicy, logger: Logger(label: "w"))
            let running = Task { try await worker.run() }
            defer { running.cancel() }

            let during = try await api.sendTestWebhook(path: .init(id: created.id)).accepted.body.json
            let overlapped = try await Self.delivery(during.id, at: receiver)
            #expect(overlapped.signature.split(separator: " ").count == 2)
            for secret in [first, second] {
                try WebhookVerifier(secret: secret).verify(
                    id: overlapped.id, timestamp: overlapped.timestamp, signatureHeader: overlapped.signature,
                    body: overlapped.body, at: Date())
            }

            // No overlap: only the newest secret signs from now on.
            let third = try #require(
                try await api.rotateWebhookSecret(path: .init(id: created.id), body: .json(.init(overlapSeconds: 0)))
                    .ok.body.json.secret)
            let after = try await api.sendTestWebhook(path: .init(id: created.id)).accepted.body.json
            let single = try await Self.delivery(after.id, at: receiver)
            #expect(single.signature.split(separator: " ").count == 1)
            try WebhookVerifier(secret: third).verify(
                id: single.id, timestamp: single.timestamp, signatureHeader: single.signature, body: single.body, at: Date())
            #expect(throws: ProvisioError.self) {
                try WebhookVerifier(secret: second).verify(
                    id: single.id, timestamp: single.timestamp, signatureHeader: single.signature, body: single.body,
                    at: Date())
            }

            let tooLong = try await api.rotateWebhookSecret(
                path: .init(id: created.id), body: .json(.init(overlapSeconds: 604_801)))
            #expect(tooLong.refused(400, .invalidParameter), "\(tooLong)")
            let unknown = try await api.rotateWebhookSecret(path: .init(id: "whe_nope"), body: .json(.init()))
            #expect(unknown.refused(404, .webhookEndpointNotFound), "\(unknown)")
            let trail = try await api.listAuditEvents(query: .init(targetType: "webhook_endpoint", targetId: created.id))
                .ok.body.json.data
            #expect(
                trail.map(\.action) == [
                    "webhook_endpoint.secret_rotated", "webhook_endpoint.secret_rotated", "webhook_endpoint.created",
                ])
        }
    }

    /// The delivery of event `id`, waiting for it (bounded).
    static func delivery(_ id: String, at receiver: WebhookReceiver) async throws -> WebhookReceiver.Received {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let found = receiver.deliveries.first(where: { $0.id == id }) { return found }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw TestSetupError("no delivery of \(id) arrived")
    }
}
