import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// A card's product reaches the wallet through the network: the decision on a new token carries
/// its profile, and a product change goes to every live token of the product's cards.
@Suite(.timeLimit(.minutes(10))) struct CardProductProfileTests {
    @Test(arguments: TestEngine.available)
    func theDecisionCarriesTheProfileAndAChangeReachesTheTokens(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                // A token added before the card had any product.
                let submission = try await h.add(on: .phone)
                let outcome = try #require(await h.network.outcome(sessionID: submission.sessionID))
                #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.profile == nil)

                // The tenant's default product: the harness's card (made without one) follows it.
                let product = try await api.createCardProduct(
                    body: .json(CardProductTests.everything(isDefault: true))
                ).created.body.json
                let art = try #require(
                    try await api.setCardProductArt(
                        path: .init(id: product.id),
                        body: .json(.init(contentType: .imagePng, data: TestCardArt.valid.base64EncodedString()))
                    ).ok.body.json.art)

                // A new token's decision carries the profile, art URL included.
                let decided = try await TokenAPITests.decide(
                    server, networkKey: h.networkKey,
                    TokenAPITests.networkTokenRequest(ref: "ref-profiled", pan: SandboxNetworkHarness.pan)
                ).ok.body.json
                let profile = try #require(decided.cardProfile)
                #expect(profile.productId == product.id && profile.name == "Demo Visa Everyday")
                #expect(profile.associatedApplicationIdentifiers == product.associatedApplicationIdentifiers)
                #expect(profile.appLaunchUrl == "demobank://wallet/cards" && profile.termsVersion == "2026-11")
                #expect(profile.cardArtUrl == art.url)

                // A change of the product goes to the token the network holds, which takes it whole.
                let changed = try await api.updateCardProduct(
                    path: .init(id: product.id),
                    body: .json(
                        .init(name: "Demo Visa Rewards", associatedApplicationIdentifiers: ["A1B2C3D4E5.com.demobank.next"]))
                ).ok.body.json
                let updates = Dictionary(
                    uniqueKeysWithValues: (changed.tokenUpdates ?? []).map { ($0.tokenId, $0.outcome) })
                #expect(updates[outcome.issuerTokenID] == .updated, "\(updates)")
                let held = try #require(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.profile)
                #expect(held.productID == product.id && held.name == "Demo Visa Rewards")
                #expect(held.associatedApplicationIdentifiers == ["A1B2C3D4E5.com.demobank.next"])
                #expect(held.cardArtURL == art.url && held.termsVersion == "2026-11")
                let audit = try await server.services.audit.events(
                    tenantID: h.tenantID, filter: AuditFilter(targetType: "token"), cursor: nil, limit: 100
                ).items.map(\.action)
                #expect(audit.contains("token.card_details_updated"))

                // A card of another product is not touched by this one's changes.
                let other = try await api.createCardProduct(body: .json(.init(name: "Premium"))).created.body.json
                var request = Components.Schemas.CreateCardRequest(
                    customerRef: "cust_premium", pan: "5555555555554444", expiryMonth: 12, expiryYear: 2031,
                    cardholderName: "Jane Appleseed")
                request.productId = other.id
                let premium = try await api.createCard(body: .json(request)).created.body.json
                let premiumDecision = try await TokenAPITests.decide(
                    server, networkKey: h.networkKey,
                    TokenAPITests.networkTokenRequest(ref: "ref-premium", pan: "5555555555554444")
                ).ok.body.json
                #expect(premiumDecision.cardProfile?.productId == other.id && premium.productId == other.id)
                let again = try await api.updateCardProduct(
                    path: .init(id: product.id), body: .json(.init(contactName: "Card services"))
                ).ok.body.json
                let touched = try await api.listTokens(query: .init(cardId: premium.id)).ok.body.json.data.map(\.id)
                #expect(Set((again.tokenUpdates ?? []).map(\.tokenId)).isDisjoint(with: touched))
            }
        }
    }
}
