import Foundation
import ProvisioAPI
import ProvisioCore
import Testing

/// Nothing a client sends may produce a 500: hostile bodies at every POST endpoint get a 4xx in
/// the wire error shape.
@Suite struct RobustnessTests {
    static let hostileBodies: [String] = [
        "", "null", "true", "42", "\"string\"", "[]", "{}", "[{}]", "{\"a\":", "{\"a\":1}}", "\u{0}\u{1}\u{2}",
        String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000),
        #"{"customer_ref": {"nested": true}, "pan": ["4111111111111111"]}"#,
        #"{"customer_ref": "c", "pan": "4111111111111111", "expiry_month": 1e400, "expiry_year": -1, "cardholder_name": "x"}"#,
        #"{"customer_ref": "c", "pan": "4111111111111111", "expiry_month": 9223372036854775808, "expiry_year": 2030, "cardholder_name": "x"}"#,
        #"{"certificates": "not an array", "nonce": 1, "nonce_signature": null}"#,
        #"{"certificates": [1, 2, 3], "nonce": "00", "nonce_signature": "00"}"#,
        #"{"certificates": ["\u0000"], "nonce": "\ud800", "nonce_signature": "00"}"#,
        #"{"user_address": "Main Street"}"#,
        #"{"user_address": {"name": 5}}"#,
        #"{"card_id": "card_x", "wallet": "apple_pay", "extra": {}}"#,
        #"{"customer_ref": "", "ttl_seconds": 1.5}"#,
        #"{"customer_ref": "c", "ttl_seconds": -99999999999999999999}"#,
    ]

    @Test func hostileBodiesNeverCauseAServerError() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey).id
            let session = try await server.api(apiKey).createMobileSession(body: .json(.init(customerRef: "cust_1")))
                .created.body.json.token
            let endpoints: [(String, String)] = [
                ("/v1/cards", apiKey), ("/v1/cards/\(card)/close", apiKey), ("/v1/cards/\(card)/provisioning/apple-pay", apiKey),
                ("/v1/cards/\(card)/provisioning/google-pay", apiKey), ("/v1/cards/\(card)/provisioning/samsung-pay", apiKey),
                ("/v1/mobile-sessions", apiKey), ("/v1/provision-tokens", apiKey),
                ("/v1/mobile/cards/\(card)/provisioning/apple-pay", session),
                ("/v1/cards/%00/provisioning/apple-pay", apiKey), ("/v1/cards/\(String(repeating: "x", count: 500))", apiKey),
            ]
            var checked = 0
            for (path, token) in endpoints {
                for body in Self.hostileBodies {
                    for key in [nil, "hostile-\(checked)"] {
                        // Raw: these bodies are what the generated client never sends.
                        let response = try await server.raw.send(
                            .post, path, token: token, body: Data(body.utf8), headers: key.map { ["Idempotency-Key": $0] } ?? [:])
                        // Closing a card takes no body, so it may succeed; everything else is refused.
                        #expect(response.status < 500, "\(path) \(body.prefix(60)) → \(response.status) \(response.text)")
                        if response.status >= 400 {
                            #expect(response.refusalCode != nil, "\(path) \(body.prefix(60)) → \(response.text)")
                        }
                        checked += 1
                    }
                }
            }
            #expect(checked == endpoints.count * Self.hostileBodies.count * 2)
            #expect(!server.logs.text.contains("request failed"), "a request ended in a 5xx")
        }
    }
}
