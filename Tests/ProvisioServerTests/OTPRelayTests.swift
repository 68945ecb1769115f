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
}
