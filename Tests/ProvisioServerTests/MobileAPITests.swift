import Foundation
import ProvisioCore
import Testing

/// The SDK's endpoints: a mobile session reaches only its customer's cards; a provision token
/// works once, for its card and wallet only.
@Suite struct MobileAPITests {
    func session(_ server: TestServer, apiKey: String, customer: String, ttl: Int? = nil) async throws -> String {
        var body: [String: Any] = ["customer_ref": customer]
        if let ttl { body["ttl_seconds"] = ttl }
        let response = try await server.client.post("/v1/mobile-sessions", token: apiKey, json: body)
        #expect(response.status == 201, "\(response.text)")
        #expect(response.json?["customer_ref"] as? String == customer)
        return try #require(response.json?["token"] as? String)
    }

    @Test(arguments: TestEngine.available)
    func sessionSeesOnlyItsCustomersEligibleCards(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let mine =
                try await server.makeCard(apiKey: apiKey, customerRef: "alice", extra: ["product_title": "Everyday"])["id"]
                as! String
            let closed = try await server.makeCard(apiKey: apiKey, customerRef: "alice")["id"] as! String
            _ = try await server.client.post("/v1/cards/\(closed)/close", token: apiKey, json: [String: Any]())
            let theirs = try await server.makeCard(apiKey: apiKey, customerRef: "bob")["id"] as! String
            let token = try await session(server, apiKey: apiKey, customer: "alice")
            #expect(token.hasPrefix("prv_ms_"))

            let list = try await server.client.get("/v1/mobile/cards", token: token)
            #expect(list.status == 200)
            let cards = try #require(list.json?["data"] as? [[String: Any]])
            #expect(cards.map { $0["id"] as? String } == [mine])
            #expect(
                Set(cards[0].keys) == [
                    "id", "last4", "network", "cardholder_name", "product_title", "primary_account_identifier",
                ])

            let own = try await server.client.post(
                "/v1/mobile/cards/\(mine)/provisioning/apple-pay", token: token, json: try server.applePayBody())
            #expect(own.status == 200, "\(own.text)")
            let other = try await server.client.post(
                "/v1/mobile/cards/\(theirs)/provisioning/apple-pay", token: token, json: try server.applePayBody())
            #expect(other.status == 404 && other.errorCode == "card_not_found")
            let closedCard = try await server.client.post(
                "/v1/mobile/cards/\(closed)/provisioning/apple-pay", token: token, json: try server.applePayBody())
            #expect(closedCard.status == 409 && closedCard.errorCode == "card_closed")
        }
    }

    @Test(arguments: TestEngine.available)
    func sessionsExpire(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let token = try await session(server, apiKey: apiKey, customer: "alice", ttl: 60)
            #expect(try await server.client.get("/v1/mobile/cards", token: token).status == 200)
            server.clock.advance(by: 61)
            let expired = try await server.client.get("/v1/mobile/cards", token: token)
            #expect(expired.status == 401 && expired.errorCode == "token_expired")

            for ttl in [0, 59, 86_401] {
                let bad = try await server.client.post(
                    "/v1/mobile-sessions", token: apiKey, json: ["customer_ref": "a", "ttl_seconds": ttl])
                #expect(bad.status == 400 && bad.errorCode == "invalid_parameter")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func provisionTokensWorkExactlyOnceForTheirCardAndWallet(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey)["id"] as! String
            let otherCard = try await server.makeCard(apiKey: apiKey)["id"] as! String
            func token(wallet: String = "apple_pay") async throws -> String {
                let response = try await server.client.post(
                    "/v1/provision-tokens", token: apiKey, json: ["card_id": card, "wallet": wallet])
                #expect(response.status == 201, "\(response.text)")
                #expect(response.json?["card_id"] as? String == card)
                return try #require(response.json?["provision_token"] as? String)
            }

            let first = try await token()
            let listed = try await server.client.get("/v1/mobile/cards", token: first)
            #expect((listed.json?["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [card])
            let wrongCard = try await server.client.post(
                "/v1/mobile/cards/\(otherCard)/provisioning/apple-pay", token: first, json: try server.applePayBody())
            #expect(wrongCard.status == 403 && wrongCard.errorCode == "token_scope_mismatch")
            let used = try await server.client.post(
                "/v1/mobile/cards/\(card)/provisioning/apple-pay", token: first, json: try server.applePayBody())
            #expect(used.status == 200, "\(used.text)")
            let replay = try await server.client.post(
                "/v1/mobile/cards/\(card)/provisioning/apple-pay", token: first, json: try server.applePayBody())
            #expect(replay.status == 409 && replay.errorCode == "token_already_used")

            let googleToken = try await token(wallet: "google_pay")
            let wrongWallet = try await server.client.post(
                "/v1/mobile/cards/\(card)/provisioning/apple-pay", token: googleToken, json: try server.applePayBody())
            #expect(wrongWallet.status == 403 && wrongWallet.errorCode == "token_scope_mismatch")

            let late = try await token()
            server.clock.advance(by: 301)
            let expired = try await server.client.post(
                "/v1/mobile/cards/\(card)/provisioning/apple-pay", token: late, json: try server.applePayBody())
            #expect(expired.status == 401 && expired.errorCode == "token_expired")

            let badWallet = try await server.client.post(
                "/v1/provision-tokens", token: apiKey, json: ["card_id": card, "wallet": "paypal"])
            #expect(badWallet.status == 400 && badWallet.errorCode == "invalid_wallet")
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentUsesOfOneProvisionTokenSucceedOnce(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey)["id"] as! String
            let token = try #require(
                try await server.client.post(
                    "/v1/provision-tokens", token: apiKey, json: ["card_id": card, "wallet": "apple_pay"]
                )
                .json?["provision_token"] as? String)
            let body = try JSONSerialization.data(withJSONObject: try server.applePayBody())
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await server.client.send(
                            .post, "/v1/mobile/cards/\(card)/provisioning/apple-pay", token: token, body: body
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 409 || $0 == 401 }.count == 7, "\(statuses)")
        }
    }
}

@Suite struct MobileRetryAndPushTests {
    @Test(arguments: TestEngine.available)
    func aSpentProvisionTokenStillReplaysItsIdempotentAnswer(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey)["id"] as! String
            let token = try #require(
                try await server.client.post(
                    "/v1/provision-tokens", token: apiKey, json: ["card_id": card, "wallet": "apple_pay"]
                )
                .json?["provision_token"] as? String)
            let body = try JSONSerialization.data(withJSONObject: try server.applePayBody())
            let path = "/v1/mobile/cards/\(card)/provisioning/apple-pay"
            let first = try await server.client.send(
                .post, path, token: token, body: body, headers: ["Idempotency-Key": "retry-1"])
            #expect(first.status == 200)
            // The app lost the response and retries with the same key: the first answer comes back.
            let retry = try await server.client.send(
                .post, path, token: token, body: body, headers: ["Idempotency-Key": "retry-1"])
            #expect(
                retry.status == 200 && retry.header("Idempotent-Replayed") == "true" && retry.body == first.body,
                "\(retry.status) \(retry.text)")
            // Anything else with the spent token is refused.
            let fresh = try await server.client.send(
                .post, path, token: token, body: body, headers: ["Idempotency-Key": "retry-2"])
            #expect(fresh.status == 409 && fresh.errorCode == "token_already_used")
            let list = try await server.client.get("/v1/mobile/cards", token: token)
            #expect(list.status == 409 && list.errorCode == "token_already_used")
            let issuerRoute = try await server.client.get("/v1/cards?customer_ref=cust_1", token: token)
            #expect(issuerRoute.status == 409 && issuerRoute.errorCode == "token_already_used")
        }
    }

    @Test(arguments: TestEngine.available)
    func googleAndSamsungPayProvisionTokensWorkOnTheirMobileRoutes(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey)["id"] as! String
            for (wallet, path) in [("google_pay", "google-pay"), ("samsung_pay", "samsung-pay")] {
                let token = try #require(
                    try await server.client.post(
                        "/v1/provision-tokens", token: apiKey, json: ["card_id": card, "wallet": wallet]
                    )
                    .json?["provision_token"] as? String)
                let wrongRoute = try await server.client.post(
                    "/v1/mobile/cards/\(card)/provisioning/apple-pay", token: token, json: try server.applePayBody())
                #expect(wrongRoute.status == 403 && wrongRoute.errorCode == "token_scope_mismatch")
                let token2 = try #require(
                    try await server.client.post(
                        "/v1/provision-tokens", token: apiKey, json: ["card_id": card, "wallet": wallet]
                    )
                    .json?["provision_token"] as? String)
                let ok = try await server.client.post(
                    "/v1/mobile/cards/\(card)/provisioning/\(path)", token: token2, json: [String: Any]())
                #expect(ok.status == 200, "\(ok.text)")
                #expect(ok.json?["token_service_provider"] as? String == "TOKEN_PROVIDER_VISA")
                let again = try await server.client.post(
                    "/v1/mobile/cards/\(card)/provisioning/\(path)", token: token2, json: [String: Any]())
                #expect(again.status == 409 && again.errorCode == "token_already_used")
            }
            let attempts = try await server.client.get("/v1/cards/\(card)/provisioning-attempts", token: apiKey)
            #expect(
                Set((attempts.json?["data"] as? [[String: Any]] ?? []).compactMap { $0["wallet"] as? String }) == [
                    "google_pay", "samsung_pay",
                ])
        }
    }
}
