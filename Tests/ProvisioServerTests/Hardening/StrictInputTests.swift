import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

/// Input the decoder and the idempotency digest could read differently, or that smuggles a
/// card number or control characters into free text, is refused with a stable code, and the
/// error repeats nothing the caller sent.
@Suite struct StrictInputTests {
    static let card = #""customer_ref":"cust_1","expiry_month":12,"expiry_year":2030,"cardholder_name":"Jane""#

    @Test(arguments: TestEngine.available)
    func duplicateKeysAreRefusedAtEveryDepth(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let twoPANs = #"{"pan":"4111111111111111",\#(Self.card),"pan":"5555555555554444"}"#
            let first = try await server.client.send(
                .post, "/v1/cards", token: apiKey, body: Data(twoPANs.utf8), headers: ["Idempotency-Key": "dup"])
            #expect(first.status == 400 && first.errorCode == "duplicate_json_key", "\(first.text)")
            #expect(!first.text.contains("4111111111111111") && !first.text.contains("5555555555554444"))
            // Escaped spelling of the same key is the same key.
            let escaped = #"{"pan":"4111111111111111",\#(Self.card),"p\u0061n":"5555555555554444"}"#
            let second = try await server.client.send(.post, "/v1/cards", token: apiKey, body: Data(escaped.utf8))
            #expect(second.errorCode == "duplicate_json_key")
            let listed = try await server.client.get("/v1/cards?customer_ref=cust_1", token: apiKey)
            #expect((listed.json?["data"] as? [Any])?.isEmpty == true)

            // Nested: the network's risk object.
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            _ = try await server.makeCard(apiKey: apiKey)
            let nested = #"""
                {"pan":"4111111111111111","expiry_month":12,"expiry_year":2030,"wallet":"apple_pay","network_token_ref":"r1",
                 "risk":{"device_score":5,"account_score":5,"wallet_recommendation":"approve","device_score":1}}
                """#
            let risk = try await server.client.send(
                .post, "/v1/network/token-requests", token: networkKey, body: Data(nested.utf8))
            #expect(risk.status == 400 && risk.errorCode == "duplicate_json_key", "\(risk.text)")
        }
    }

    @Test func unknownFieldsInNestedObjectsAreRefusedWithoutBeingNamed() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            _ = try await server.makeCard(apiKey: apiKey)
            var request = TokenAPITests.tokenRequest(ref: "r-nested")
            request["risk"] = ["device_score": 5, "account_score": 5, "wallet_recommendation": "approve", "SMUGGLED_FIELD": 1]
            let refused = try await server.client.post("/v1/network/token-requests", token: networkKey, json: request)
            #expect(refused.status == 400 && refused.errorCode == "unknown_field", "\(refused.text)")
            #expect(!refused.text.contains("SMUGGLED_FIELD"))
            let card = try #require(try await server.makeCard(apiKey: apiKey, customerRef: "c2")["id"] as? String)
            let address = try await server.client.post(
                "/v1/cards/\(card)/provisioning/google-pay", token: apiKey,
                json: ["user_address": ["name": "Jane", "SMUGGLED_FIELD": "x"]])
            #expect(address.status == 400 && address.errorCode == "unknown_field", "\(address.text)")
            let topLevel = try await server.client.post(
                "/v1/mobile-sessions", token: apiKey, json: ["customer_ref": "c", "SMUGGLED_FIELD": 1])
            #expect(topLevel.errorCode == "unknown_field" && !topLevel.text.contains("SMUGGLED_FIELD"))
        }
    }

    @Test func controlCharactersAreRefusedInEveryTextField() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            for bad in ["cust\u{0}1", "cust\u{1b}[31m", "cust\u{7f}", "cust\u{85}", "line\nbreak"] {
                let session = try await server.client.post("/v1/mobile-sessions", token: apiKey, json: ["customer_ref": bad])
                #expect(session.status == 400 && session.errorCode == "invalid_request", "\(session.text)")
                #expect(session.text.contains("customer_ref"))
            }
            let nested = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": "https://example.com/h", "events": ["token.created\u{0}"]])
            #expect(nested.status == 400 && nested.errorCode == "invalid_request")
        }
    }

    @Test func cardNumbersInFreeTextAndImpossiblePANsAreRefused() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let base: [String: Any] = [
                "customer_ref": "cust_1", "pan": "4111111111111111", "expiry_month": 12, "expiry_year": 2030,
                "cardholder_name": "Jane",
            ]
            let cases: [(String, Any, String)] = [
                ("cardholder_name", "Jane 4111 1111 1111 1111", "invalid_cardholder_name"),
                ("customer_ref", "4111-1111-1111-1111", "card_number_in_text"),
                ("account_ref", "acct 5555555555554444", "card_number_in_text"),
                ("product_title", "Visa 4111111111111111", "card_number_in_text"),
                ("pan", "0000000000000000", "invalid_pan"),
                ("pan", "0000000000000", "invalid_pan"),
            ]
            for (field, value, code) in cases {
                var body = base
                body[field] = value
                let response = try await server.client.post("/v1/cards", token: apiKey, json: body)
                #expect(response.status == 400 && response.errorCode == code, "\(field): \(response.text)")
                #expect(!response.text.contains("4111") && !response.text.contains("5555555555554444"))
            }
            let session = try await server.client.post(
                "/v1/mobile-sessions", token: apiKey, json: ["customer_ref": "4111111111111111"])
            #expect(session.errorCode == "card_number_in_text")
            // Digits that are not a card number stay allowed.
            var fine = base
            fine["customer_ref"] = "cust-2024-000123"
            fine["cardholder_name"] = "Jane 3rd"
            #expect(try await server.client.post("/v1/cards", token: apiKey, json: fine).status == 201)

            // The network's token_last4 is four digits, nothing else.
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            for last4 in ["4111111111111111", "12a4", "123", ""] {
                var request = TokenAPITests.tokenRequest(ref: "r-\(last4.count)")
                request["token_last4"] = last4
                let refused = try await server.client.post("/v1/network/token-requests", token: networkKey, json: request)
                #expect(refused.status == 400 && refused.errorCode == "invalid_parameter", "\(last4): \(refused.text)")
                #expect(!refused.text.contains("4111111111111111"))
            }
        }
    }

    @Test func nullIsRefusedAndLengthsCountCodePoints() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let withNull =
                #"{"customer_ref":"c","pan":"4111111111111111","expiry_month":12,"expiry_year":2030,"#
                + #""cardholder_name":"Jane","account_ref":null}"#
            let refused = try await server.client.send(.post, "/v1/cards", token: apiKey, body: Data(withNull.utf8))
            #expect(refused.status == 400 && refused.errorCode == "invalid_request", "\(refused.text)")
            // 100 × (e + combining acute) is 100 characters but 200 code points: over the limit of 128.
            let decomposed = String(repeating: "e\u{301}", count: 100)
            let long = try await server.client.post("/v1/mobile-sessions", token: apiKey, json: ["customer_ref": decomposed])
            #expect(long.status == 400 && long.errorCode == "invalid_parameter", "\(long.text)")
            let fits = try await server.client.post(
                "/v1/mobile-sessions", token: apiKey, json: ["customer_ref": String(repeating: "e\u{301}", count: 64)])
            #expect(fits.status == 201, "\(fits.text)")
        }
    }

    @Test func messagesNeverRepeatWhatTheCallerSent() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let marker = "ZZ-CALLER-TEXT-ZZ"
            let event = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": "https://example.com/h", "events": [marker]])
            #expect(event.errorCode == "invalid_parameter" && !event.text.contains(marker))
            let route = try await server.client.get("/v1/\(marker)", token: apiKey)
            #expect(route.errorCode == "route_not_found" && !route.text.contains(marker))
            let url = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": "https://\(marker)@example.com/", "events": ["*"]])
            #expect(url.status == 400 && !url.text.contains(marker))
            let json = try await server.client.send(
                .post, "/v1/mobile-sessions", token: apiKey, body: Data("{\"\(marker)\"".utf8))
            #expect(json.errorCode == "invalid_json" && !json.text.contains(marker))
        }
    }

    /// The API speaks JSON whatever `Accept` says, and an `Accept` it cannot honour never turns
    /// a change already made into an error answer.
    @Test func acceptIsNotConsultedAndNeverUndoesAnAnswer() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let body = #"{"pan":"4111111111111111",\#(Self.card)}"#
            let created = try await server.client.send(
                .post, "/v1/cards", token: apiKey, body: Data(body.utf8), headers: ["Accept": "text/html"])
            #expect(created.status == 201 && created.json?["last4"] as? String == "1111", "\(created.text)")
            let listed = try await server.client.send(
                .get, "/v1/cards?customer_ref=cust_1", token: apiKey, body: nil, headers: ["Accept": "image/png"])
            #expect(listed.status == 200 && (listed.json?["data"] as? [Any])?.count == 1, "\(listed.text)")
        }
    }
}
