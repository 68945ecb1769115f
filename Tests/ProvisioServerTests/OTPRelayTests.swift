import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import Testing

@testable import ProvisioServer

/// Flow 3b on the issuer side: the network's one-time code goes to the issuer's webhook,
/// signed and synchronously, and the issuer's masked channels come back to the network.
@Suite struct OTPRelayTests {
    func pendingToken(_ server: TestServer) async throws -> (apiKey: String, networkKey: String, ref: String) {
        let (tenantID, apiKey) = try await server.makeTenant()
        _ = try await server.makeCard(apiKey: apiKey)
        let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
        let decided = try await TokenAPITests.decide(
            server, networkKey: networkKey,
            TokenAPITests.networkTokenRequest(ref: "ref-otp", recommendation: .requireVerification)
        ).ok.body.json
        #expect(decided.state == .pendingVerification)
        return (apiKey, networkKey, "ref-otp")
    }

    @Test(arguments: TestEngine.available)
    func theCodeReachesTheIssuerSignedAndTheMaskedChannelsComeBack(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(engine) { server in
            let (apiKey, networkKey, ref) = try await pendingToken(server)
            let api = server.api(apiKey)
            func relay(_ request: Components.Schemas.NetworkOTPRequest) async throws -> Operations.RelayOneTimeCode.Output {
                try await server.api(networkKey).relayOneTimeCode(path: .init(ref: ref), body: .json(request))
            }
            let unconfigured = try await relay(.init(code: "123456"))
            #expect(unconfigured.refused(502, .otpRelayNotConfigured), "\(unconfigured)")

            let endpoint = try await api.createWebhookEndpoint(
                body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
            ).created.body.json
            let secret = try #require(endpoint.secret)
            receiver.setAnswer(
                #"{"channels":[{"type":"sms","masked":"+1 ••• ••• 4821"},{"type":"email","masked":"j•••@example.com"}]}"#)
            let expiresAt = try StrictTimestamp().decode("2030-01-01T00:00:00Z")
            let relayed = try await relay(.init(code: "482913", expiresAt: expiresAt)).ok.body.json
            #expect(
                relayed.channels == [
                    .init(_type: .sms, masked: "+1 ••• ••• 4821"), .init(_type: .email, masked: "j•••@example.com"),
                ])

            let got = try #require(receiver.deliveries.last)
            try WebhookVerifier(secret: secret).verify(
                id: got.id, timestamp: got.timestamp, signatureHeader: got.signature, body: got.body, at: Date())
            let event = try WebhookEvent<WebhookPayload.OTPRequested>(got.body)
            #expect(event.type == "token.otp_requested")
            #expect(event.data.code == "482913" && event.data.expiresAt == expiresAt)
            #expect(event.data.card.last4 == "1111")
            #expect(event.data.token.state == .pendingVerification)
            #expect(!String(decoding: got.body, as: UTF8.self).contains("4111111111111111"))

            // The synchronous call is in the delivery list like any other.
            let deliveries = try await api.listWebhookDeliveries().ok.body.json.data
            #expect(deliveries.map(\.state) == [.succeeded])

            receiver.setAnswer(#"{"sent": true}"#)
            let garbled = try await relay(.init(code: "482913"))
            #expect(garbled.refused(502, .otpRelayFailed), "\(garbled)")
            receiver.setDown(true)
            let down = try await relay(.init(code: "482913"))
            #expect(down.refused(502, .otpRelayFailed), "\(down)")
            let recorded = try await api.listWebhookDeliveries().ok.body.json.data
            #expect(recorded.map(\.state.rawValue).sorted() == ["failed", "failed", "succeeded"])
        }
    }

    @Test(arguments: TestEngine.available)
    func badCodesUnknownTokensAndActiveTokensAreRefused(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, networkKey, ref) = try await pendingToken(server)
            let network = server.api(networkKey)
            for code in ["12", "123456789", "12a456", ""] {
                let bad = try await network.relayOneTimeCode(path: .init(ref: ref), body: .json(.init(code: code)))
                #expect(bad.refused(400, .invalidOtp), "\(code): \(bad)")
            }
            let unknown = try await network.relayOneTimeCode(path: .init(ref: "nope"), body: .json(.init(code: "123456")))
            #expect(unknown.refused(404, .tokenNotFound), "\(unknown)")
            _ = try await network.reportTokenEvent(path: .init(ref: ref), body: .json(.init(event: .activated))).ok
            let active = try await network.relayOneTimeCode(path: .init(ref: ref), body: .json(.init(code: "123456")))
            #expect(active.refused(409, .tokenInvalidTransition), "\(active)")
        }
    }

    /// A relayed code is sent to the issuer and then gone: nothing in the database files (every
    /// table, the write-ahead log included) or the logs holds it, and its delivery cannot be
    /// replayed. Before, `webhook_events.payload` held `"code":"…"` in clear and a replay sent
    /// it again.
    @Test func aRelayedCodeIsNeverAtRestAndItsDeliveryIsNotReplayable() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        let code = "433786"
        let (files, logs) = try await TestServer.run(.sqlite) { server in
            let (apiKey, networkKey, ref) = try await pendingToken(server)
            let api = server.api(apiKey)
            _ = try await api.createWebhookEndpoint(
                body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
            ).created.body.json
            receiver.setAnswer(#"{"channels":[{"type":"sms","masked":"+1 ••• ••• 4821"}]}"#)
            let relayed = try await server.raw.post(
                "/v1/network/tokens/\(ref)/otp", token: networkKey, body: Components.Schemas.NetworkOTPRequest(code: code),
                headers: ["Idempotency-Key": "otp-1"])
            #expect(relayed.status == 200, "\(relayed.text)")
            #expect(!relayed.text.contains(code))
            let sent = try #require(receiver.deliveries.last)
            #expect(try WebhookEvent<WebhookPayload.OTPRequested>(sent.body).data.code == code)

            // The stored event still says what was sent, without the code.
            let delivery = try #require(try await api.listWebhookDeliveries().ok.body.json.data.first)
            let event = try #require(
                try await server.services.handle.read { database in
                    try await database.raw("SELECT type, payload FROM webhook_events WHERE type = 'token.otp_requested'").all()
                        .map {
                            (try $0.decode(column: "type", as: String.self), try $0.decode(column: "payload", as: String.self))
                        }
                }.first)
            #expect(event.0 == "token.otp_requested" && event.1.contains("\"last4\":\"1111\""), "\(event.1)")

            let replay = try await server.raw.send(
                .post, "/v1/webhook-deliveries/\(delivery.id)/replay", token: apiKey, body: nil)
            #expect(replay.refused(409, .webhookDeliveryNotReplayable), "\(replay.status) \(replay.text)")
            #expect(receiver.deliveries.count == 1)

            guard case .sqlite(let path) = server.database else { throw TestSetupError("expected SQLite") }
            var files = Data()
            for suffix in ["", "-wal", "-shm"] {
                files.append((try? Data(contentsOf: URL(fileURLWithPath: path + suffix))) ?? Data())
            }
            return (files, server.logs.text)
        }
        #expect(files.count > 10_000, "the database files were read")
        #expect(files.range(of: Data(code.utf8)) == nil, "the code is in the SQLite files")
        #expect(!logs.contains(code), "the code is in the logs")
    }
}
