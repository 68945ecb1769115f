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

    @Test(arguments: TestEngine.available)
    func theProductsMethodsAndSupportNumberAreWhatAYellowTokenIsOffered(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                _ = try await api.setActivationMethodSettings(
                    body: .json(.init(customerServicePhoneNumber: "+1 800 555 0199"))
                ).ok
                _ = try await api.updateCard(
                    path: .init(id: h.cardID),
                    body: .json(.init(cardholderPhone: "+14155550123", cardholderEmail: "jane@example.com"))
                ).ok
                func offers(_ ref: String, on device: Components.Schemas.DeviceType) async throws
                    -> [Components.Schemas.ActivationOffer]
                {
                    var request = TokenAPITests.networkTokenRequest(
                        ref: ref, pan: SandboxNetworkHarness.pan, recommendation: .requireVerification)
                    request.deviceType = device
                    let decided = try await TokenAPITests.decide(server, networkKey: h.networkKey, request).ok.body.json
                    #expect(decided.decision == .requireVerification, "\(decided)")
                    return decided.activationOffers ?? []
                }
                // No product: every method the device and the card's contacts allow, the tenant's number.
                let before = try await offers("ref-no-product", on: .phone)
                #expect(before.map(\.method) == [.appToApp, .otpSms, .otpEmail, .customerService])
                #expect(before.last?.contact == "+1 800 555 0199")

                // The default product offers a code by email and customer service, with its own number.
                _ = try await api.createCardProduct(
                    body: .json(
                        .init(
                            name: "Everyday", _default: true, supportPhone: "+1 800 555 0100",
                            activationMethods: [.otpEmail, .customerService]))
                ).created
                for (ref, device) in [("ref-phone", Components.Schemas.DeviceType.phone), ("ref-watch", .watch)] {
                    let narrowed = try await offers(ref, on: device)
                    #expect(narrowed.map(\.method) == [.otpEmail, .customerService], "\(device)")
                    #expect(narrowed.first?.contact?.contains("@example.com") == true)
                    #expect(narrowed.first?.contact?.contains("jane") == false)
                    #expect(narrowed.last?.contact == "+1 800 555 0100")
                }
            }
        }
    }
}
