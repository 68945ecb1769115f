import Foundation
import ProvisioAPI
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
            let first = try await server.raw.send(
                .post, "/v1/cards", token: apiKey, body: Data(twoPANs.utf8), headers: ["Idempotency-Key": "dup"])
            #expect(first.refused(400, .duplicateJsonKey), "\(first.text)")
            #expect(!first.text.contains("4111111111111111") && !first.text.contains("5555555555554444"))
            // Escaped spelling of the same key is the same key.
            let escaped = #"{"pan":"4111111111111111",\#(Self.card),"p\u0061n":"5555555555554444"}"#
            let second = try await server.raw.send(.post, "/v1/cards", token: apiKey, body: Data(escaped.utf8))
            #expect(second.error?.code == .duplicateJsonKey, "\(second.text)")
            let listed = try await server.api(apiKey).listCards(query: .init(customerRef: "cust_1")).ok.body.json
            #expect(listed.data.isEmpty)

            // Nested: the network's risk object.
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            _ = try await server.makeCard(apiKey: apiKey)
            let nested = #"""
                {"pan":"4111111111111111","expiry_month":12,"expiry_year":2030,"wallet":"apple_pay","network_token_ref":"r1",
                 "risk":{"device_score":5,"account_score":5,"wallet_recommendation":"approve","device_score":1}}
                """#
            let risk = try await server.raw.send(
                .post, "/v1/network/token-requests", token: networkKey, body: Data(nested.utf8))
            #expect(risk.refused(400, .duplicateJsonKey), "\(risk.text)")
        }
    }

    @Test func unknownFieldsInNestedObjectsAreRefusedWithoutBeingNamed() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            _ = try await server.makeCard(apiKey: apiKey)
            // Unknown fields cannot be sent typed.
            var request = try OpenAPIJSON(encoding: TokenAPITests.networkTokenRequest(ref: "r-nested"))
            request["risk"]?["SMUGGLED_FIELD"] = 1
            let refused = try await server.raw.post("/v1/network/token-requests", token: networkKey, body: request)
            #expect(refused.refused(400, .unknownField), "\(refused.text)")
            #expect(!refused.text.contains("SMUGGLED_FIELD"))
            let card = try await server.makeCard(apiKey: apiKey, customerRef: "c2").id
            let address = try await server.raw.post(
                "/v1/cards/\(card)/provisioning/google-pay", token: apiKey,
                body: ["user_address": ["name": "Jane", "SMUGGLED_FIELD": "x"]] as OpenAPIJSON)
            #expect(address.refused(400, .unknownField), "\(address.text)")
            let topLevel = try await server.raw.post(
                "/v1/mobile-sessions", token: apiKey, body: ["customer_ref": "c", "SMUGGLED_FIELD": 1] as OpenAPIJSON)
            #expect(topLevel.error?.code == .unknownField && !topLevel.text.contains("SMUGGLED_FIELD"))
        }
    }

    @Test func controlCharactersAreRefusedInEveryTextField() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            for bad in ["cust\u{0}1", "cust\u{1b}[31m", "cust\u{7f}", "cust\u{85}", "line\nbreak"] {
                let session = try await server.api(apiKey).createMobileSession(body: .json(.init(customerRef: bad)))
                #expect(session.refused(400, .invalidRequest), "\(session)")
                #expect(session.refusal?.error.message.contains("customer_ref") == true)
            }
            // An event name outside the document's enum cannot be sent typed.
            let nested = try await server.raw.post(
                "/v1/webhook-endpoints", token: apiKey,
                body: ["url": "https://example.com/h", "events": ["token.created\u{0}"]] as OpenAPIJSON)
            #expect(nested.refused(400, .invalidRequest), "\(nested.text)")
        }
    }

    @Test func cardNumbersInFreeTextAndImpossiblePANsAreRefused() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let base = Components.Schemas.CreateCardRequest(
                customerRef: "cust_1", pan: "4111111111111111", expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane")
            let cases: [(String, (inout Components.Schemas.CreateCardRequest) -> Void, Components.Schemas.ErrorCode)] = [
                ("cardholder_name", { $0.cardholderName = "Jane 4111 1111 1111 1111" }, .invalidCardholderName),
                ("customer_ref", { $0.customerRef = "4111-1111-1111-1111" }, .cardNumberInText),
                ("account_ref", { $0.accountRef = "acct 5555555555554444" }, .cardNumberInText),
                ("product_title", { $0.productTitle = "Visa 4111111111111111" }, .cardNumberInText),
                ("pan", { $0.pan = "0000000000000000" }, .invalidPan),
                ("pan", { $0.pan = "0000000000000" }, .invalidPan),
            ]
            for (field, change, code) in cases {
                var body = base
                change(&body)
                let response = try await api.createCard(body: .json(body))
                #expect(response.refused(400, code), "\(field): \(response)")
                let text = server.answers.all.last?.text ?? ""
                // The numbers as the cases wrote them (a bare "4111" can be part of a random request id).
                for number in ["4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111", "5555555555554444"] {
                    #expect(!text.contains(number), "\(field) echoed a card number")
                }
            }
            let session = try await api.createMobileSession(body: .json(.init(customerRef: "4111111111111111")))
            #expect(session.refusal?.code == .cardNumberInText, "\(session)")
            // Digits that are not a card number stay allowed.
            var fine = base
            fine.customerRef = "cust-2024-000123"
            fine.cardholderName = "Jane 3rd"
            #expect(try await api.createCard(body: .json(fine)).status == 201)

            // The network's token_last4 is four digits, nothing else.
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            for last4 in ["4111111111111111", "12a4", "123", ""] {
                var request = TokenAPITests.networkTokenRequest(ref: "r-\(last4.count)")
                request.tokenLast4 = last4
                let refused = try await TokenAPITests.decide(server, networkKey: networkKey, request)
                #expect(refused.refused(400, .invalidParameter), "\(last4): \(refused)")
                #expect(!(server.answers.all.last?.text.contains("4111111111111111") ?? true))
            }
        }
    }

    @Test func nullIsRefusedAndLengthsCountCodePoints() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let withNull =
                #"{"customer_ref":"c","pan":"4111111111111111","expiry_month":12,"expiry_year":2030,"#
                + #""cardholder_name":"Jane","account_ref":null}"#
            let refused = try await server.raw.send(.post, "/v1/cards", token: apiKey, body: Data(withNull.utf8))
            #expect(refused.refused(400, .invalidRequest), "\(refused.text)")
            // 100 × (e + combining acute) is 100 characters but 200 code points: over the limit of 128.
            let api = server.api(apiKey)
            let decomposed = String(repeating: "e\u{301}", count: 100)
            let long = try await api.createMobileSession(body: .json(.init(customerRef: decomposed)))
            #expect(long.refused(400, .invalidParameter), "\(long)")
            let fits = try await api.createMobileSession(
                body: .json(.init(customerRef: String(repeating: "e\u{301}", count: 64))))
            #expect(fits.status == 201, "\(fits)")
        }
    }

    @Test func messagesNeverRepeatWhatTheCallerSent() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let marker = "ZZ-CALLER-TEXT-ZZ"
            // An event outside the document's enum, a path no operation has and broken JSON go raw.
            let event = try await server.raw.post(
                "/v1/webhook-endpoints", token: apiKey,
                body: ["url": "https://example.com/h", "events": [.string(marker)]] as OpenAPIJSON)
            #expect(event.error?.code == .invalidParameter && !event.text.contains(marker), "\(event.text)")
            let route = try await server.raw.get("/v1/\(marker)", token: apiKey)
            #expect(route.error?.code == .routeNotFound && !route.text.contains(marker), "\(route.text)")
            let url = try await server.api(apiKey).createWebhookEndpoint(
                body: .json(.init(url: "https://\(marker)@example.com/", events: [._ast_])))
            #expect(url.refusal?.status == 400 && !(server.answers.all.last?.text.contains(marker) ?? true), "\(url)")
            let json = try await server.raw.send(
                .post, "/v1/mobile-sessions", token: apiKey, body: Data("{\"\(marker)\"".utf8))
            #expect(json.error?.code == .invalidJson && !json.text.contains(marker), "\(json.text)")
        }
    }

    /// The API speaks JSON whatever `Accept` says, and an `Accept` it cannot honour never turns
    /// a change already made into an error answer.
    @Test func acceptIsNotConsultedAndNeverUndoesAnAnswer() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let body = #"{"pan":"4111111111111111",\#(Self.card)}"#
            // The generated client always accepts JSON; another Accept goes raw.
            let created = try await server.raw.send(
                .post, "/v1/cards", token: apiKey, body: Data(body.utf8), headers: ["Accept": "text/html"])
            #expect(created.status == 201, "\(created.text)")
            #expect(try created.decode(Components.Schemas.Card.self).last4 == "1111", "\(created.text)")
            let listed = try await server.raw.send(
                .get, "/v1/cards?customer_ref=cust_1", token: apiKey, body: nil, headers: ["Accept": "image/png"])
            #expect(listed.status == 200, "\(listed.text)")
            #expect(try listed.decode(Components.Schemas.CardList.self).data.count == 1, "\(listed.text)")
        }
    }
}
