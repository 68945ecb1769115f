import Foundation
import ProvisioAPI
import ProvisioCore
import Testing

@Suite struct CardsAPITests {
    @Test(arguments: TestEngine.available)
    func createsAndReadsCardsWithoutThePAN(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            // `Card` is a closed object: a `pan` field would fail decoding.
            let card = try await server.makeCard(
                apiKey: apiKey, pan: "5555 5555 5555 4444", accountRef: "acc_9", productTitle: "World Elite",
                cardArtURL: "https://cdn.example.com/art.png")
            #expect(card.id.hasPrefix("card_"))
            #expect(card.last4 == "4444")
            #expect(card.network == .mastercard)
            #expect(card.status == .active)
            #expect(card.productTitle == "World Elite")
            #expect(card.primaryAccountIdentifier.hasPrefix("M-"))

            let fetched = try await server.api(apiKey).getCard(path: .init(id: card.id)).ok
            #expect(try fetched.body.json.id == card.id)
            // `req_` and 24 lowercase hex digits, as the document says; two requests, two ids.
            #expect(fetched.headers.xRequestId.wholeMatch(of: /req_[0-9a-f]{24}/) != nil)
            let again = try await server.api(apiKey).getCard(path: .init(id: card.id)).ok
            #expect(again.headers.xRequestId != fetched.headers.xRequestId)
            #expect(!server.answers.all.contains { $0.text.contains("5555555555554444") })
        }
    }

    @Test(arguments: TestEngine.available)
    func networkGivenByTheIssuerWins(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey, network: "visa")
            #expect(card.network == .visa)
            let bad = try await server.api(apiKey).createCard(
                body: .json(
                    .init(
                        customerRef: "c", pan: "4111111111111111", expiryMonth: 12, expiryYear: 2030, cardholderName: "J",
                        network: "diners")))
            #expect(bad.refused(400, .invalidParameter), "\(bad)")
        }
    }

    @Test(arguments: TestEngine.available)
    func listsPerCustomerWithPagination(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            var created: [String] = []
            for index in 0..<5 {
                created.append(try await server.makeCard(apiKey: apiKey, customerRef: "cust_p").id)
                server.clock.advance(by: Double(index % 2))
            }
            _ = try await server.makeCard(apiKey: apiKey, customerRef: "cust_other")
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await api.listCards(query: .init(customerRef: "cust_p", limit: 2, cursor: cursor)).ok.body.json
                #expect(page.data.count <= 2)
                seen += page.data.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            // Cards created in the same millisecond come back in id order: same set, each once.
            #expect(seen.count == created.count && Set(seen) == Set(created))

            // A missing customer_ref and a limit that is not an integer cannot be sent typed.
            #expect(try await server.raw.get("/v1/cards", token: apiKey).error?.code == .invalidParameter)
            #expect(try await api.listCards(query: .init(customerRef: "cust_p", limit: 0)).refusal?.code == .invalidParameter)
            #expect(
                try await server.raw.get("/v1/cards?customer_ref=cust_p&limit=x", token: apiKey).error?.code
                    == .invalidParameter)
            #expect(try await api.listCards(query: .init(customerRef: "cust_p", cursor: "@@")).refusal?.code == .invalidCursor)
        }
    }

    @Test(arguments: TestEngine.available)
    func closingACardMakesItIneligible(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let id = try await server.makeCard(apiKey: apiKey).id
            let closed = try await api.closeCard(path: .init(id: id)).ok.body.json
            #expect(closed.status == .closed)
            // Closing again changes nothing, not even updated_at.
            server.clock.advance(by: 60)
            let again = try await api.closeCard(path: .init(id: id)).ok.body.json
            #expect(again.updatedAt == closed.updatedAt)
            let provisioning = try await api.provisionApplePay(
                path: .init(id: id), body: .json(try server.applePayRequest()))
            #expect(provisioning.refused(409, .cardClosed), "\(provisioning)")
            let token = try await api.createProvisionToken(body: .json(.init(cardId: id, wallet: .applePay)))
            #expect(token.refused(409, .cardClosed), "\(token)")
        }
    }

    @Test(arguments: TestEngine.available)
    func tenantsAreIsolated(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, keyA) = try await server.makeTenant("A")
            let (_, keyB) = try await server.makeTenant("B")
            let b = server.api(keyB)
            let id = try await server.makeCard(apiKey: keyA).id
            let refusals: [Refusal?] = [
                try await b.getCard(path: .init(id: id)).refusal,
                try await b.closeCard(path: .init(id: id)).refusal,
                try await b.provisionApplePay(path: .init(id: id), body: .json(try server.applePayRequest())).refusal,
                try await b.listProvisioningAttempts(path: .init(id: id)).refusal,
                try await b.createProvisionToken(body: .json(.init(cardId: id, wallet: .applePay))).refusal,
            ]
            for refusal in refusals {
                #expect(refusal?.status == 404 && refusal?.code == .cardNotFound, "\(String(describing: refusal))")
            }
            let listB = try await b.listCards(query: .init(customerRef: "cust_1")).ok.body.json
            #expect(listB.data.isEmpty)
            // Tenant A's card is untouched.
            #expect(try await server.api(keyA).getCard(path: .init(id: id)).ok.body.json.status == .active)
        }
    }

    @Test(arguments: TestEngine.available)
    func authenticationRules(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let query = Operations.ListCards.Input.Query(customerRef: "c")
            let noHeader = try await server.api().listCards(query: query)
            #expect(noHeader.refused(401, .missingCredentials), "\(noHeader)")
            // Another scheme than Bearer is a header the generated client does not send.
            let badScheme = try await server.raw.send(
                .get, "/v1/cards?customer_ref=c", token: nil, body: nil, headers: ["Authorization": "Basic abc"])
            #expect(badScheme.refused(401, .missingCredentials), "\(badScheme.text)")
            let unknown = try await server.api("prv_sk_nope").listCards(query: query)
            #expect(unknown.refused(401, .invalidCredentials), "\(unknown)")
            let garbage = try await server.api("hello").listCards(query: query)
            #expect(garbage.refused(401, .invalidCredentials), "\(garbage)")
            let session = try await server.api(apiKey).createMobileSession(body: .json(.init(customerRef: "c")))
            let mobileToken = try session.created.body.json.token
            let wrongKind = try await server.api(mobileToken).listCards(query: query)
            #expect(wrongKind.refused(403, .wrongCredentialKind), "\(wrongKind)")
            let apiKeyOnMobile = try await server.api(apiKey).listMobileCards()
            #expect(apiKeyOnMobile.refused(403, .wrongCredentialKind), "\(apiKeyOnMobile)")
        }
    }

    @Test(arguments: TestEngine.available)
    func badInputGetsAClearFourHundredAndNoPAN(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            func card(_ change: (inout Components.Schemas.CreateCardRequest) -> Void) -> Components.Schemas.CreateCardRequest {
                var request = Components.Schemas.CreateCardRequest(
                    customerRef: "c", pan: "4111111111111111", expiryMonth: 12, expiryYear: 2030, cardholderName: "J")
                change(&request)
                return request
            }
            // What the generated types can hold goes through the generated client.
            let typed: [(body: Components.Schemas.CreateCardRequest, status: Int, code: Components.Schemas.ErrorCode)] = [
                (card { $0.pan = "4111111111111112" }, 400, .invalidPan),
                (card { $0.pan = "4111-1111-abcd" }, 400, .invalidPan),
                (card { $0.expiryMonth = 13 }, 400, .invalidExpiry),
                (card { $0.expiryYear = 2020 }, 422, .cardExpired),
                (card { $0.cardholderName = "  " }, 400, .invalidCardholderName),
                (card { $0.cardArtUrl = "http://insecure.example.com/a.png" }, 400, .invalidParameter),
                (card { $0.customerRef = "" }, 400, .invalidParameter),
            ]
            for testCase in typed {
                let refusal = try await api.createCard(body: .json(testCase.body)).refusal
                #expect(refusal?.status == testCase.status && refusal?.code == testCase.code, "\(String(describing: refusal))")
                #expect(refusal?.error.requestId.hasPrefix("req_") == true)
                #expect(refusal?.error.message.isEmpty == false)
            }
            // What they cannot: unknown fields, missing ones, wrong types, broken or oversized JSON.
            let valid = try OpenAPIJSON(encoding: card { _ in })
            func with(_ key: String, _ value: OpenAPIJSON?) throws -> Data {
                var body = valid
                body[key] = value
                return try APIJSON.encode(body)
            }
            let raw: [(body: Data, status: Int, code: Components.Schemas.ErrorCode)] = [
                (try with("pann", "4111111111111111"), 400, .unknownField),
                (try with("pan", nil), 400, .invalidRequest),
                (try with("expiry_month", "twelve"), 400, .invalidRequest),
                (Data("{\"pan\": \"4111111111111111\"".utf8), 400, .invalidJson),
                (Data("[1, 2]".utf8), 400, .invalidJson),
                (Data(), 400, .invalidJson),
                (Data(repeating: UInt8(ascii: " "), count: 300_000), 413, .payloadTooLarge),
            ]
            for testCase in raw {
                let response = try await server.raw.send(.post, "/v1/cards", token: apiKey, body: testCase.body)
                #expect(response.status == testCase.status, "\(testCase.code): \(response.text)")
                #expect(response.error?.code == testCase.code, "\(response.text)")
                #expect(response.error?.requestId.hasPrefix("req_") == true)
                #expect(response.error?.message.isEmpty == false)
                #expect(!response.text.contains("4111111111111111") && !response.text.contains("4111111111111112"))
            }
            #expect(
                !server.answers.all.contains { $0.text.contains("4111111111111111") || $0.text.contains("4111111111111112") })
            let notFound = try await server.raw.get("/v1/nothing-here", token: apiKey)
            #expect(notFound.refused(404, .routeNotFound), "\(notFound.text)")
            let unknownCard = try await api.getCard(path: .init(id: "card_doesnotexist"))
            #expect(unknownCard.refused(404, .cardNotFound), "\(unknownCard)")
        }
    }
}
