import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// A card's changes reach its wallet tokens at the network: a reissue shows the new expiry on
/// the passes in Wallet; closing the card deletes its tokens (recorded, announced, audited).
/// A network that is down leaves the token live and says so; closing again finishes the job.
@Suite struct CardCarryThroughTests {
    @Test(arguments: TestEngine.available)
    func reissueAndCloseReachEveryToken(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                // Green on the Watch; the iPhone's add goes yellow (the app can verify it there).
                let watch = try #require(await h.network.outcome(sessionID: try await h.add(on: .watch).sessionID))
                await h.network.setRisk(.yellow, forLast4: "1111")
                let phone = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                let serials = [try #require(phone.pass?.serialNumber), try #require(watch.pass?.serialNumber)]
                #expect(await h.wallet.pass(serialNumber: serials[0])?.details.expiry?.slashed == "12/30")

                let reissued = try await api.updateCard(
                    path: .init(id: h.cardID),
                    body: .json(
                        .init(
                            expiryMonth: 3, expiryYear: 2033, cardholderName: "Jane Q Appleseed",
                            productTitle: "Acme Visa Platinum"))
                ).ok.body.json
                #expect(reissued.expiryMonth == 3 && reissued.expiryYear == 2033)
                #expect(reissued.cardholderName == "Jane Q Appleseed")
                let updates = try #require(reissued.tokenUpdates)
                #expect(Set(updates.map(\.tokenId)) == [phone.issuerTokenID, watch.issuerTokenID])
                #expect(updates.allSatisfy { $0.outcome == .updated && $0.errorCode == nil })
                for serial in serials {
                    let details = await h.wallet.pass(serialNumber: serial)?.details
                    #expect(details?.expiry?.slashed == "03/33" && details?.cardholderName == "Jane Q Appleseed")
                    // The product's title reaches the pass too.
                    #expect(details?.productTitle == "Acme Visa Platinum")
                }
                #expect(await h.network.token(networkTokenRef: phone.networkTokenRef)?.fundingExpiry.slashed == "03/33")
                // In-app verification of the pending token now signs over the new expiry, and the
                // network, which has it, accepts it.
                let tav = try await h.activationData(tokenID: phone.issuerTokenID)
                _ = try await h.network.verifyActivationData(networkTokenRef: phone.networkTokenRef, activationData: tav)
                #expect(await h.wallet.pass(serialNumber: serials[0])?.activationState == .activated)

                // The same again: nothing new is stored, and the tokens are sent it again (how a
                // push the network missed is retried).
                let same = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(expiryMonth: 3, expiryYear: 33))
                ).ok.body.json
                #expect(same.tokenUpdates?.map(\.outcome) == [.updated, .updated])

                // Closing deletes both tokens at the network and here; the passes leave Wallet.
                let closed = try await api.closeCard(path: .init(id: h.cardID)).ok.body.json
                #expect(closed.status == .closed)
                #expect(closed.tokenUpdates?.map(\.outcome) == [.deleted, .deleted])
                for outcome in [phone, watch] {
                    let token = try await api.getToken(path: .init(id: outcome.issuerTokenID)).ok.body.json
                    #expect(token.state == .deleted)
                    #expect(token.events?.last?.reasonCode == "card_closed")
                    #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.state == .deleted)
                }
                #expect(await h.wallet.passes(primaryAccountIdentifier: h.cardID).isEmpty)
                // Closing again finds nothing left to delete.
                #expect(try await api.closeCard(path: .init(id: h.cardID)).ok.body.json.tokenUpdates == [])
                let reissueClosed = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(cardholderName: "Someone")))
                #expect(reissueClosed.refused(409, .cardClosed), "\(reissueClosed)")

                let trail = try await api.listAuditEvents(query: .init(targetType: "token", targetId: phone.issuerTokenID))
                    .ok.body.json.data.map(\.action)
                #expect(trail.prefix(2) == ["token.deleted", "token.card_details_updated"])
                let cardTrail = try await api.listAuditEvents(query: .init(targetType: "card", targetId: h.cardID))
                    .ok.body.json.data
                #expect(cardTrail.map(\.action) == ["card.closed", "card.updated", "card.created"])
                #expect(cardTrail[1].reason == "expiry, cardholder_name, product_title")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func aNetworkThatIsDownLeavesTheTokenLiveUntilClosedAgain(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                let added = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                _ = try await api.setNetworkSettings(body: .json(.init(url: "http://127.0.0.1:9", apiKey: h.sandboxKey))).ok

                let reissue = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(expiryMonth: 1, expiryYear: 2034))
                ).ok.body.json
                #expect(reissue.expiryYear == 2034)
                #expect(reissue.tokenUpdates?.map(\.outcome) == [.failed])
                #expect(reissue.tokenUpdates?.first?.errorCode == .networkUnavailable)
                // Once the network is back, the same reissue again reaches the token.
                _ = try await api.setNetworkSettings(body: .json(.init(url: h.sandboxURL, apiKey: h.sandboxKey))).ok
                // The same reissue again reaches the token now.
                let retried = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(expiryMonth: 1, expiryYear: 2034))
                ).ok.body.json
                #expect(retried.tokenUpdates?.map(\.outcome) == [.updated])
                #expect(await h.network.token(networkTokenRef: added.networkTokenRef)?.fundingExpiry.slashed == "01/34")
                _ = try await api.setNetworkSettings(body: .json(.init(url: "http://127.0.0.1:9", apiKey: h.sandboxKey))).ok

                let closed = try await api.closeCard(path: .init(id: h.cardID)).ok.body.json
                #expect(closed.status == .closed && closed.tokenUpdates?.first?.outcome == .failed)
                #expect(try await api.getToken(path: .init(id: added.issuerTokenID)).ok.body.json.state == .active)

                _ = try await api.setNetworkSettings(body: .json(.init(url: h.sandboxURL, apiKey: h.sandboxKey))).ok
                let again = try await api.closeCard(path: .init(id: h.cardID)).ok.body.json
                #expect(again.tokenUpdates?.map(\.outcome) == [.deleted])
                #expect(try await api.getToken(path: .init(id: added.issuerTokenID)).ok.body.json.state == .deleted)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func reissueInputKeepsItsCodes(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey)
            let api = server.api(apiKey)
            let half = try await api.updateCard(path: .init(id: card.id), body: .json(.init(expiryMonth: 4)))
            #expect(half.refused(400, .invalidExpiry), "\(half)")
            let past = try await api.updateCard(path: .init(id: card.id), body: .json(.init(expiryMonth: 1, expiryYear: 2020)))
            #expect(past.refused(422, .cardExpired), "\(past)")
            let art = try await api.updateCard(path: .init(id: card.id), body: .json(.init(cardArtUrl: "http://insecure/x.png")))
            #expect(art.refusal?.status == 400, "\(art)")
            let title = try await api.updateCard(
                path: .init(id: card.id), body: .json(.init(productTitle: "card 4111111111111111")))
            #expect(title.refused(400, .cardNumberInText), "\(title)")
            let unknown = try await api.updateCard(path: .init(id: "card_nope"), body: .json(.init(cardholderName: "X")))
            #expect(unknown.refused(404, .cardNotFound), "\(unknown)")
            // Nothing above changed the card.
            #expect(try await api.getCard(path: .init(id: card.id)).ok.body.json == card)
        }
    }
}
