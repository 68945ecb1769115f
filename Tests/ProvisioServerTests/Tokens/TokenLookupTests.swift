import Foundation
import ProvisioAPI
import Testing

/// `GET /v1/tokens` finds tokens the ways an issuer's backend knows them: by card, by customer
/// across their cards, by the pass's device account identifier, by the network's reference;
/// filters combine, pages follow, and another tenant's tokens never appear.
@Suite struct TokenLookupTests {
    @Test(arguments: TestEngine.available)
    func eachFilterFindsItsTokensAndOnlyThose(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            // Jane has two cards, John one; each card gets tokens from the network.
            let janeVisa = try await server.makeCard(apiKey: apiKey, customerRef: "cust_jane", pan: "4111111111111111")
            let janeOther = try await server.makeCard(apiKey: apiKey, customerRef: "cust_jane", pan: "4000056655665556")
            let john = try await server.makeCard(apiKey: apiKey, customerRef: "cust_john", pan: "5555555555554444")
            for (ref, pan) in [
                ("ref-j1", "4111111111111111"), ("ref-j2", "4111111111111111"), ("ref-j3", "4000056655665556"),
                ("ref-k1", "5555555555554444"),
            ] {
                // A second apart: the order is the order they were made in.
                server.clock.advance(by: 1)
                _ = try await TokenAPITests.decide(
                    server, networkKey: networkKey, TokenAPITests.networkTokenRequest(ref: ref, pan: pan)
                ).ok
            }
            func refs(_ query: Operations.ListTokens.Input.Query) async throws -> [String] {
                try await api.listTokens(query: query).ok.body.json.data.map(\.networkTokenRef)
            }

            #expect(try await refs(.init(cardId: janeVisa.id)) == ["ref-j1", "ref-j2"])
            #expect(try await refs(.init(customerRef: "cust_jane")) == ["ref-j1", "ref-j2", "ref-j3"])
            #expect(try await refs(.init(customerRef: "cust_john")) == ["ref-k1"])
            // The pass's identifier, as PassKit gives it, and the network's reference: one token each.
            #expect(try await refs(.init(deviceAccountIdentifier: "DAI-ref-j3")) == ["ref-j3"])
            let byRef = try await api.listTokens(query: .init(networkTokenRef: "ref-k1")).ok.body.json.data
            #expect(byRef.map(\.cardId) == [john.id])
            // Filters combine: all must match.
            #expect(try await refs(.init(cardId: janeOther.id, customerRef: "cust_jane")) == ["ref-j3"])
            #expect(try await refs(.init(cardId: janeOther.id, deviceAccountIdentifier: "DAI-ref-j1")).isEmpty)
            #expect(try await refs(.init(customerRef: "cust_nobody")).isEmpty)
            #expect(try await refs(.init(networkTokenRef: "ref-unknown")).isEmpty)

            // Pages: one token at a time, in order, and the cursor ends.
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await api.listTokens(query: .init(customerRef: "cust_jane", limit: 1, cursor: cursor)).ok.body
                    .json
                seen += page.data.map(\.networkTokenRef)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == ["ref-j1", "ref-j2", "ref-j3"])

            // Another tenant sees none of them, whichever filter it uses.
            let (_, otherKey) = try await server.makeTenant("Other Bank")
            let other = server.api(otherKey)
            #expect(try await other.listTokens(query: .init(customerRef: "cust_jane")).ok.body.json.data.isEmpty)
            #expect(try await other.listTokens(query: .init(networkTokenRef: "ref-j1")).ok.body.json.data.isEmpty)
            #expect(try await other.listTokens(query: .init(cardId: janeVisa.id)).refused(404, .cardNotFound))
        }
    }

    @Test func badLookupsAreRefusedWithTheirCode() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            #expect(try await api.listTokens(query: .init()).refused(400, .invalidParameter))
            #expect(try await api.listTokens(query: .init(cardId: "card_unknown")).refused(404, .cardNotFound))
            // A card number where a customer reference goes is refused, never looked up.
            let pan = "4111111111111111"
            let refused = try await server.raw.get("/v1/tokens?customer_ref=\(pan)", token: apiKey)
            #expect(refused.refused(400, .cardNumberInText), "\(refused.text)")
            #expect(!refused.text.contains(pan))
            #expect(!server.logs.text.contains(pan))
            let long = String(repeating: "x", count: 129)
            for name in ["customer_ref", "device_account_identifier", "network_token_ref"] {
                let answer = try await server.raw.get("/v1/tokens?\(name)=\(long)", token: apiKey)
                #expect(answer.status == 400, "\(name): \(answer.text)")
            }
        }
    }
}
