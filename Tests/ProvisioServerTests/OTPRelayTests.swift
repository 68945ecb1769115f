import Foundation
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
        let decided = try await server.client.post(
            "/v1/network/token-requests", token: networkKey,
            json: TokenAPITests.tokenRequest(ref: "ref-otp", wallet: "require_verification"))
        #expect(decided.json?["state"] as? String == "pending_verification")
        return (apiKey, networkKey, "ref-otp")
    }

    @Test(arguments: TestEngine.available)
    func theCodeReachesTheIssuerSignedAndTheMaskedChannelsComeBack(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(engine) { server in
            let (apiKey, networkKey, ref) = try await pendingToken(server)
            let path = "/v1/network/tokens/\(ref)/otp"
            let unconfigured = try await server.client.post(path, token: networkKey, json: ["code": "123456"])
            #expect(unconfigured.status == 502 && unconfigured.errorCode == "otp_relay_not_configured")

            let endpoint = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": receiver.url, "events": ["token.otp_requested"]])
            let secret = try #require(endpoint.json?["secret"] as? String)
            receiver.setAnswer(
                #"{"channels":[{"type":"sms","masked":"+1 ••• ••• 4821"},{"type":"email","masked":"j•••@example.com"}]}"#)
            let relayed = try await server.client.post(
                path, token: networkKey, json: ["code": "482913", "expires_at": "2030-01-01T00:00:00Z"])
            #expect(relayed.status == 200, "\(relayed.text)")
            let channels = try #require(relayed.json?["channels"] as? [[String: String]])
            #expect(
                channels == [["type": "sms", "masked": "+1 ••• ••• 4821"], ["type": "email", "masked": "j•••@example.com"]])

            let got = try #require(receiver.deliveries.last)
            try WebhookVerifier(secret: secret).verify(
                id: got.id, timestamp: got.timestamp, signatureHeader: got.signature, body: got.body, at: Date())
            let body = try #require(try JSONSerialization.jsonObject(with: got.body) as? [String: Any])
            let data = try #require(body["data"] as? [String: Any])
            #expect(body["type"] as? String == "token.otp_requested")
            #expect(data["code"] as? String == "482913")
            #expect((data["card"] as? [String: Any])?["last4"] as? String == "1111")
            #expect((data["token"] as? [String: Any])?["state"] as? String == "pending_verification")
            #expect(!String(decoding: got.body, as: UTF8.self).contains("4111111111111111"))

            // The synchronous call is in the delivery list like any other.
            let deliveries =
                try await server.client.get("/v1/webhook-deliveries", token: apiKey).json?["data"] as? [[String: Any]] ?? []
            #expect(deliveries.map { $0["state"] as? String } == ["succeeded"])

            receiver.setAnswer(#"{"sent": true}"#)
            let garbled = try await server.client.post(path, token: networkKey, json: ["code": "482913"])
            #expect(garbled.status == 502 && garbled.errorCode == "otp_relay_failed")
            receiver.setDown(true)
            let down = try await server.client.post(path, token: networkKey, json: ["code": "482913"])
            #expect(down.status == 502 && down.errorCode == "otp_relay_failed")
            let recorded =
                try await server.client.get("/v1/webhook-deliveries", token: apiKey).json?["data"] as? [[String: Any]] ?? []
            #expect(recorded.compactMap { $0["state"] as? String }.sorted() == ["failed", "failed", "succeeded"])
        }
    }

    @Test(arguments: TestEngine.available)
    func badCodesUnknownTokensAndActiveTokensAreRefused(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, networkKey, ref) = try await pendingToken(server)
            for code in ["12", "123456789", "12a456", ""] {
                let bad = try await server.client.post("/v1/network/tokens/\(ref)/otp", token: networkKey, json: ["code": code])
                #expect(bad.status == 400 && bad.errorCode == "invalid_otp", "\(code)")
            }
            let unknown = try await server.client.post("/v1/network/tokens/nope/otp", token: networkKey, json: ["code": "123456"])
            #expect(unknown.status == 404 && unknown.errorCode == "token_not_found")
            _ = try await server.client.post("/v1/network/tokens/\(ref)/events", token: networkKey, json: ["event": "activated"])
            let active = try await server.client.post(
                "/v1/network/tokens/\(ref)/otp", token: networkKey, json: ["code": "123456"])
            #expect(active.status == 409 && active.errorCode == "token_invalid_transition")
        }
    }
}
