import Foundation
import ProvisioAPI
import ProvisioCore
import Testing

/// The SDK's endpoints: a mobile session reaches only its customer's cards; a provision token
/// works once, for its card and wallet only.
@Suite struct MobileAPITests {
    func session(_ server: TestServer, apiKey: String, customer: String, ttl: Int? = nil) async throws -> String {
        let session = try await server.api(apiKey).createMobileSession(
            body: .json(.init(customerRef: customer, ttlSeconds: ttl))
        ).created.body.json
        #expect(session.customerRef == customer)
        return session.token
    }

    static func provisionToken(
        _ server: TestServer, apiKey: String, card: String, wallet: Components.Schemas.Wallet = .applePay
    ) async throws -> String {
        let token = try await server.api(apiKey).createProvisionToken(body: .json(.init(cardId: card, wallet: wallet)))
            .created.body.json
        #expect(token.cardId == card && token.wallet == wallet)
        return token.provisionToken
    }

    @Test(arguments: TestEngine.available)
    func sessionSeesOnlyItsCustomersEligibleCards(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let mine = try await server.makeCard(apiKey: apiKey, customerRef: "alice", productTitle: "Everyday").id
            let closed = try await server.makeCard(apiKey: apiKey, customerRef: "alice").id
            _ = try await server.api(apiKey).closeCard(path: .init(id: closed)).ok
            let theirs = try await server.makeCard(apiKey: apiKey, customerRef: "bob").id
            let token = try await session(server, apiKey: apiKey, customer: "alice")
            #expect(token.hasPrefix("prv_ms_"))
            let app = server.api(token)

            // `MobileCard` is closed: it carries exactly what the wallet and the add button need.
            let cards = try await app.listMobileCards().ok.body.json.data
            #expect(cards.map(\.id) == [mine])
            #expect(cards.first?.productTitle == "Everyday" && cards.first?.cardArtUrl == nil)

            let own = try await app.provisionApplePayFromMobile(
                path: .init(id: mine), body: .json(try server.applePayRequest()))
            #expect(own.status == 200, "\(own)")
            let other = try await app.provisionApplePayFromMobile(
                path: .init(id: theirs), body: .json(try server.applePayRequest()))
            #expect(other.refused(404, .cardNotFound), "\(other)")
            let closedCard = try await app.provisionApplePayFromMobile(
                path: .init(id: closed), body: .json(try server.applePayRequest()))
            #expect(closedCard.refused(409, .cardClosed), "\(closedCard)")
        }
    }

    @Test(arguments: TestEngine.available)
    func sessionsExpire(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let token = try await session(server, apiKey: apiKey, customer: "alice", ttl: 60)
            #expect(try await server.api(token).listMobileCards().status == 200)
            server.clock.advance(by: 61)
            let expired = try await server.api(token).listMobileCards()
            #expect(expired.refused(401, .tokenExpired), "\(expired)")

            for ttl in [0, 59, 86_401] {
                let bad = try await server.api(apiKey).createMobileSession(body: .json(.init(customerRef: "a", ttlSeconds: ttl)))
                #expect(bad.refused(400, .invalidParameter), "\(ttl): \(bad)")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func provisionTokensWorkExactlyOnceForTheirCardAndWallet(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey).id
            let otherCard = try await server.makeCard(apiKey: apiKey).id
            func token(wallet: Components.Schemas.Wallet = .applePay) async throws -> String {
                try await Self.provisionToken(server, apiKey: apiKey, card: card, wallet: wallet)
            }
            func add(_ id: String, with token: String) async throws -> Operations.ProvisionApplePayFromMobile.Output {
                try await server.api(token).provisionApplePayFromMobile(
                    path: .init(id: id), body: .json(try server.applePayRequest()))
            }

            let first = try await token()
            let listed = try await server.api(first).listMobileCards().ok.body.json
            #expect(listed.data.map(\.id) == [card])
            let wrongCard = try await add(otherCard, with: first)
            #expect(wrongCard.refused(403, .tokenScopeMismatch), "\(wrongCard)")
            let used = try await add(card, with: first)
            #expect(used.status == 200, "\(used)")
            let replay = try await add(card, with: first)
            #expect(replay.refused(409, .tokenAlreadyUsed), "\(replay)")

            let googleToken = try await token(wallet: .googlePay)
            let wrongWallet = try await add(card, with: googleToken)
            #expect(wrongWallet.refused(403, .tokenScopeMismatch), "\(wrongWallet)")

            let late = try await token()
            server.clock.advance(by: 301)
            let expired = try await add(card, with: late)
            #expect(expired.refused(401, .tokenExpired), "\(expired)")

            // A wallet outside the document's enum cannot be sent typed.
            let badWallet = try await server.raw.post(
                "/v1/provision-tokens", token: apiKey, body: ["card_id": .string(card), "wallet": "paypal"] as OpenAPIJSON)
            #expect(badWallet.refused(400, .invalidWallet), "\(badWallet.text)")
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentUsesOfOneProvisionTokenSucceedOnce(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey).id
            let token = try await Self.provisionToken(server, apiKey: apiKey, card: card)
            let body = try server.applePayRequest()
            let app = server.api(token)
            // Each call has a connection of its own: the eight arrive together.
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await app.provisionApplePayFromMobile(path: .init(id: card), body: .json(body)).status
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
            let card = try await server.makeCard(apiKey: apiKey).id
            let token = try await MobileAPITests.provisionToken(server, apiKey: apiKey, card: card)
            // Raw: the replay is compared byte for byte.
            let body = try APIJSON.encode(try server.applePayRequest())
            let path = "/v1/mobile/cards/\(card)/provisioning/apple-pay"
            let first = try await server.raw.send(.post, path, token: token, body: body, headers: ["Idempotency-Key": "retry-1"])
            #expect(first.status == 200)
            let payload = try first.decode(Components.Schemas.ApplePayPayload.self)
            // The app lost the response and retries with the same key: the first answer comes back.
            let retry = try await server.raw.send(.post, path, token: token, body: body, headers: ["Idempotency-Key": "retry-1"])
            #expect(
                retry.status == 200 && retry.header("Idempotent-Replayed") == "true" && retry.body == first.body,
                "\(retry.status) \(retry.text)")
            #expect(try retry.decode(Components.Schemas.ApplePayPayload.self) == payload)
            // Anything else with the spent token is refused.
            let fresh = try await server.api(token).provisionApplePayFromMobile(
                path: .init(id: card), headers: .init(idempotencyKey: "retry-2"), body: .json(try server.applePayRequest()))
            #expect(fresh.refused(409, .tokenAlreadyUsed), "\(fresh)")
            let list = try await server.api(token).listMobileCards()
            #expect(list.refused(409, .tokenAlreadyUsed), "\(list)")
            let issuerRoute = try await server.api(token).listCards(query: .init(customerRef: "cust_1"))
            #expect(issuerRoute.refused(409, .tokenAlreadyUsed), "\(issuerRoute)")
        }
    }

    @Test(arguments: TestEngine.available)
    func googleAndSamsungPayProvisionTokensWorkOnTheirMobileRoutes(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey).id
            for wallet in [Components.Schemas.Wallet.googlePay, .samsungPay] {
                func push(_ token: String) async throws -> (
                    status: Int, refusal: Refusal?, provider: String?
                ) {
                    let app = server.api(token)
                    if wallet == .googlePay {
                        let output = try await app.provisionGooglePayFromMobile(path: .init(id: card), body: .json(.init()))
                        return (output.status, output.refusal, try? output.ok.body.json.tokenServiceProvider.rawValue)
                    }
                    let output = try await app.provisionSamsungPayFromMobile(path: .init(id: card), body: .json(.init()))
                    return (output.status, output.refusal, try? output.ok.body.json.tokenizationProvider.rawValue)
                }
                let token = try await MobileAPITests.provisionToken(server, apiKey: apiKey, card: card, wallet: wallet)
                let wrongRoute = try await server.api(token).provisionApplePayFromMobile(
                    path: .init(id: card), body: .json(try server.applePayRequest()))
                #expect(wrongRoute.refused(403, .tokenScopeMismatch), "\(wrongRoute)")
                let token2 = try await MobileAPITests.provisionToken(server, apiKey: apiKey, card: card, wallet: wallet)
                let ok = try await push(token2)
                #expect(ok.status == 200, "\(ok)")
                #expect(ok.provider == (wallet == .googlePay ? "TOKEN_PROVIDER_VISA" : "VI"))
                let again = try await push(token2)
                #expect(again.refusal?.status == 409 && again.refusal?.code == .tokenAlreadyUsed, "\(again)")
            }
            let attempts = try await server.api(apiKey).listProvisioningAttempts(path: .init(id: card)).ok.body.json
            #expect(Set(attempts.data.map(\.wallet)) == [.googlePay, .samsungPay])
        }
    }
}
