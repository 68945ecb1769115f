import Foundation
import ProvisioCore
import Testing

@Suite struct CardsAPITests {
    @Test(arguments: TestEngine.available)
    func createsAndReadsCardsWithoutThePAN(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(
                apiKey: apiKey, pan: "5555 5555 5555 4444",
                extra: [
                    "product_title": "World Elite", "card_art_url": "https://cdn.example.com/art.png", "account_ref": "acc_9",
                ])
            let id = try #require(card["id"] as? String)
            #expect(id.hasPrefix("card_"))
            #expect(card["last4"] as? String == "4444")
            #expect(card["network"] as? String == "mastercard")
            #expect(card["status"] as? String == "active")
            #expect(card["product_title"] as? String == "World Elite")
            #expect((card["primary_account_identifier"] as? String)?.hasPrefix("M-") == true)
            #expect(card["pan"] == nil)

            let fetched = try await server.client.get("/v1/cards/\(id)", token: apiKey)
            #expect(fetched.status == 200)
            #expect(fetched.json?["id"] as? String == id)
            #expect(!fetched.text.contains("5555555555554444"))
            #expect(fetched.header("X-Request-Id")?.hasPrefix("req_") == true)
        }
    }

    @Test(arguments: TestEngine.available)
    func networkGivenByTheIssuerWins(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey, extra: ["network": "visa"])
            #expect(card["network"] as? String == "visa")
            let bad = try await server.client.post(
                "/v1/cards", token: apiKey,
                json: [
                    "customer_ref": "c", "pan": "4111111111111111", "expiry_month": 12, "expiry_year": 2030,
                    "cardholder_name": "J", "network": "diners",
                ])
            #expect(bad.status == 400 && bad.errorCode == "invalid_parameter")
        }
    }

    @Test(arguments: TestEngine.available)
    func listsPerCustomerWithPagination(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            var created: [String] = []
            for index in 0..<5 {
                created.append(try await server.makeCard(apiKey: apiKey, customerRef: "cust_p")["id"] as! String)
                server.clock.advance(by: Double(index % 2))
            }
            _ = try await server.makeCard(apiKey: apiKey, customerRef: "cust_other")
            var seen: [String] = []
            var cursor: String?
            repeat {
                let query = "/v1/cards?customer_ref=cust_p&limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await server.client.get(query, token: apiKey)
                #expect(page.status == 200)
                let data = page.json?["data"] as? [[String: Any]] ?? []
                #expect(data.count <= 2)
                seen += data.compactMap { $0["id"] as? String }
                cursor = page.json?["next_cursor"] as? String
            } while cursor != nil
            // Cards created in the same millisecond come back in id order: same set, each once.
            #expect(seen.count == created.count && Set(seen) == Set(created))

            #expect(try await server.client.get("/v1/cards", token: apiKey).errorCode == "invalid_parameter")
            #expect(
                try await server.client.get("/v1/cards?customer_ref=cust_p&limit=0", token: apiKey).errorCode
                    == "invalid_parameter")
            #expect(
                try await server.client.get("/v1/cards?customer_ref=cust_p&limit=x", token: apiKey).errorCode
                    == "invalid_parameter")
            #expect(
                try await server.client.get("/v1/cards?customer_ref=cust_p&cursor=@@", token: apiKey).errorCode
                    == "invalid_cursor")
        }
    }

    @Test(arguments: TestEngine.available)
    func closingACardMakesItIneligible(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let id = try await server.makeCard(apiKey: apiKey)["id"] as! String
            let closed = try await server.client.post("/v1/cards/\(id)/close", token: apiKey, json: [String: Any]())
            #expect(closed.status == 200 && closed.json?["status"] as? String == "closed")
            // Closing again changes nothing, not even updated_at.
            server.clock.advance(by: 60)
            let again = try await server.client.post("/v1/cards/\(id)/close", token: apiKey, json: [String: Any]())
            #expect(again.status == 200 && again.json?["updated_at"] as? String == closed.json?["updated_at"] as? String)
            let provisioning = try await server.client.post(
                "/v1/cards/\(id)/provisioning/apple-pay", token: apiKey, json: try server.applePayBody())
            #expect(provisioning.status == 409 && provisioning.errorCode == "card_closed")
            let token = try await server.client.post(
                "/v1/provision-tokens", token: apiKey, json: ["card_id": id, "wallet": "apple_pay"])
            #expect(token.status == 409 && token.errorCode == "card_closed")
        }
    }

    @Test(arguments: TestEngine.available)
    func tenantsAreIsolated(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, keyA) = try await server.makeTenant("A")
            let (_, keyB) = try await server.makeTenant("B")
            let id = try await server.makeCard(apiKey: keyA)["id"] as! String
            for response in [
                try await server.client.get("/v1/cards/\(id)", token: keyB),
                try await server.client.post("/v1/cards/\(id)/close", token: keyB, json: [String: Any]()),
                try await server.client.post(
                    "/v1/cards/\(id)/provisioning/apple-pay", token: keyB, json: try server.applePayBody()),
                try await server.client.get("/v1/cards/\(id)/provisioning-attempts", token: keyB),
                try await server.client.post("/v1/provision-tokens", token: keyB, json: ["card_id": id, "wallet": "apple_pay"]),
            ] {
                #expect(response.status == 404 && response.errorCode == "card_not_found", "\(response.text)")
            }
            let listB = try await server.client.get("/v1/cards?customer_ref=cust_1", token: keyB)
            #expect((listB.json?["data"] as? [Any])?.isEmpty == true)
            // Tenant A's card is untouched.
            #expect(try await server.client.get("/v1/cards/\(id)", token: keyA).json?["status"] as? String == "active")
        }
    }

    @Test(arguments: TestEngine.available)
    func authenticationRules(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let noHeader = try await server.client.get("/v1/cards?customer_ref=c")
            #expect(noHeader.status == 401 && noHeader.errorCode == "missing_credentials")
            let badScheme = try await server.client.send(
                .get, "/v1/cards?customer_ref=c", token: nil, body: nil, headers: ["Authorization": "Basic abc"])
            #expect(badScheme.status == 401 && badScheme.errorCode == "missing_credentials")
            let unknown = try await server.client.get("/v1/cards?customer_ref=c", token: "prv_sk_nope")
            #expect(unknown.status == 401 && unknown.errorCode == "invalid_credentials")
            let garbage = try await server.client.get("/v1/cards?customer_ref=c", token: "hello")
            #expect(garbage.status == 401 && garbage.errorCode == "invalid_credentials")
            let session = try await server.client.post("/v1/mobile-sessions", token: apiKey, json: ["customer_ref": "c"])
            let mobileToken = try #require(session.json?["token"] as? String)
            let wrongKind = try await server.client.get("/v1/cards?customer_ref=c", token: mobileToken)
            #expect(wrongKind.status == 403 && wrongKind.errorCode == "wrong_credential_kind")
            let apiKeyOnMobile = try await server.client.get("/v1/mobile/cards", token: apiKey)
            #expect(apiKeyOnMobile.status == 403 && apiKeyOnMobile.errorCode == "wrong_credential_kind")
        }
    }

    @Test(arguments: TestEngine.available)
    func badInputGetsAClearFourHundredAndNoPAN(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let valid: [String: Any] = [
                "customer_ref": "c", "pan": "4111111111111111", "expiry_month": 12, "expiry_year": 2030, "cardholder_name": "J",
            ]
            func with(_ changes: [String: Any?]) -> [String: Any] {
                var body = valid
                for (key, value) in changes { body[key] = value }
                return body
            }
            let cases: [(body: Data, status: Int, code: String)] = [
                (try JSONSerialization.data(withJSONObject: with(["pan": "4111111111111112"])), 400, "invalid_pan"),
                (try JSONSerialization.data(withJSONObject: with(["pan": "4111-1111-abcd"])), 400, "invalid_pan"),
                (try JSONSerialization.data(withJSONObject: with(["expiry_month": 13])), 400, "invalid_expiry"),
                (try JSONSerialization.data(withJSONObject: with(["expiry_year": 2020])), 422, "card_expired"),
                (try JSONSerialization.data(withJSONObject: with(["cardholder_name": "  "])), 400, "invalid_cardholder_name"),
                (
                    try JSONSerialization.data(withJSONObject: with(["card_art_url": "http://insecure.example.com/a.png"])), 400,
                    "invalid_parameter"
                ),
                (try JSONSerialization.data(withJSONObject: with(["customer_ref": ""])), 400, "invalid_parameter"),
                (try JSONSerialization.data(withJSONObject: with(["pann": "4111111111111111"])), 400, "unknown_field"),
                (try JSONSerialization.data(withJSONObject: with(["pan": nil])), 400, "invalid_request"),
                (try JSONSerialization.data(withJSONObject: with(["expiry_month": "twelve"])), 400, "invalid_request"),
                (Data("{\"pan\": \"4111111111111111\"".utf8), 400, "invalid_json"),
                (Data("[1, 2]".utf8), 400, "invalid_json"),
                (Data(), 400, "invalid_json"),
                (Data(repeating: UInt8(ascii: " "), count: 300_000), 413, "payload_too_large"),
            ]
            for testCase in cases {
                let response = try await server.client.send(.post, "/v1/cards", token: apiKey, body: testCase.body)
                #expect(response.status == testCase.status, "\(testCase.code): \(response.text)")
                #expect(response.errorCode == testCase.code, "\(response.text)")
                let error = response.json?["error"] as? [String: Any]
                #expect((error?["request_id"] as? String)?.hasPrefix("req_") == true)
                #expect((error?["message"] as? String)?.isEmpty == false)
                #expect(!response.text.contains("4111111111111111") && !response.text.contains("4111111111111112"))
            }
            let notFound = try await server.client.get("/v1/nothing-here", token: apiKey)
            #expect(notFound.status == 404 && notFound.errorCode == "route_not_found")
            let unknownCard = try await server.client.get("/v1/cards/card_doesnotexist", token: apiKey)
            #expect(unknownCard.status == 404 && unknownCard.errorCode == "card_not_found")
        }
    }
}
