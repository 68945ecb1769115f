import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// A card replaced with a new number (`POST /v1/cards/{id}/replace`): the same card and tokens,
/// the new PAN sealed, each token funded by the new card at the network, the passes kept with
/// the new last four digits. Real components: the server on SQLite and PostgreSQL, the sandbox's
/// network and wallet over loopback HTTP.
@Suite(.timeLimit(.minutes(10))) struct CardReplacementTests {
    static let newPAN = "4000056655665556"

    @Test(arguments: TestEngine.available)
    func aReplacedCardKeepsItsTokensAndPassesWithTheNewNumber(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                var outcomes: [NetworkProvisioningOutcome] = []
                for kind in [SandboxDeviceKind.phone, .watch] {
                    outcomes.append(try #require(await h.network.outcome(sessionID: try await h.add(on: kind).sessionID)))
                }
                let before = try await api.getCard(path: .init(id: h.cardID)).ok.body.json

                let replaced = try await api.replaceCard(
                    path: .init(id: h.cardID),
                    body: .json(.init(pan: "4000 0566 5566 5556", expiryMonth: 9, expiryYear: 2031))
                ).ok.body.json
                #expect(replaced.id == h.cardID && replaced.last4 == "5556" && replaced.status == .active)
                #expect(replaced.expiryMonth == 9 && replaced.expiryYear == 2031)
                #expect(replaced.primaryAccountIdentifier == before.primaryAccountIdentifier)
                let updates = Dictionary(uniqueKeysWithValues: (replaced.tokenUpdates ?? []).map { ($0.tokenId, $0.outcome) })
                #expect(updates == Dictionary(uniqueKeysWithValues: outcomes.map { ($0.issuerTokenID, .updated) }))

                for outcome in outcomes {
                    // The network funds the token by the new card; the wallet keeps the pass.
                    let token = try #require(await h.network.token(networkTokenRef: outcome.networkTokenRef))
                    #expect(token.fundingPrimaryAccountNumber.unmaskedDigits == Self.newPAN)
                    #expect(token.fundingExpiry.slashed == "09/31" && token.state == .active)
                    let serial = try #require(outcome.pass?.serialNumber)
                    let pass = try #require(await h.wallet.pass(serialNumber: serial))
                    #expect(pass.primaryAccountNumberSuffix == "5556" && pass.activationState == .activated)
                    #expect(pass.deviceAccountIdentifier == outcome.pass?.deviceAccountIdentifier)
                    #expect(try await api.getToken(path: .init(id: outcome.issuerTokenID)).ok.body.json.cardId == h.cardID)
                }
                // The network's next request for the new number finds the card; the old one none.
                let decided = try await TokenAPITests.decide(
                    server, networkKey: h.networkKey, TokenAPITests.networkTokenRequest(ref: "ref-new-pan", pan: Self.newPAN)
                ).ok.body.json
                #expect(decided.decision == .approve, "\(decided)")
                let old = try await TokenAPITests.decide(
                    server, networkKey: h.networkKey, TokenAPITests.networkTokenRequest(ref: "ref-old-pan"))
                #expect(old.status == 404, "\(old)")
                // The card is provisioned under its new number.
                _ = try await api.provisionApplePay(path: .init(id: h.cardID), body: .json(try server.applePayRequest())).ok

                let cardTrail = try await api.listAuditEvents(query: .init(targetType: "card", targetId: h.cardID))
                    .ok.body.json.data
                #expect(cardTrail.first?.action == "card.replaced" && cardTrail.first?.reason == "number, expiry")
                let tokenTrail = try await api.listAuditEvents(
                    query: .init(targetType: "token", targetId: outcomes[0].issuerTokenID)
                ).ok.body.json.data
                #expect(tokenTrail.first?.action == "token.funding_account_replaced")
                #expect(try await server.services.tokenChanges.store.tokenChanges(tokenID: outcomes[0].issuerTokenID).isEmpty)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func refusalsKeepTheCardAsItIs(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let card = try await server.makeCard(apiKey: apiKey)
            let other = try await server.makeCard(apiKey: apiKey, customerRef: "cust_2", pan: "4242424242424242")
            func replace(_ pan: String, month: Int = 9, year: Int = 2031, id: String? = nil) async throws
                -> Operations.ReplaceCard.Output
            {
                try await api.replaceCard(
                    path: .init(id: id ?? card.id), body: .json(.init(pan: pan, expiryMonth: month, expiryYear: year)))
            }
            #expect(try await replace("4111111111111111").refused(409, .cardNumberUnchanged))
            #expect(try await replace("4242 4242 4242 4242").refused(409, .cardNumberInUse))
            #expect(try await replace("5555555555554444").refused(422, .cardNetworkMismatch))
            #expect(try await replace("4111111111111112").refused(400, .invalidPan))
            #expect(try await replace(Self.newPAN, month: 13).refused(400, .invalidExpiry))
            #expect(try await replace(Self.newPAN, month: 1, year: 2020).refused(422, .cardExpired))
            #expect(try await replace(Self.newPAN, id: "card_unknown").refused(404, .cardNotFound))
            // Another tenant's card is unknown.
            let (_, otherKey) = try await server.makeTenant("Other Bank")
            let foreign = try await server.api(otherKey).replaceCard(
                path: .init(id: card.id), body: .json(.init(pan: Self.newPAN, expiryMonth: 9, expiryYear: 2031)))
            #expect(foreign.refused(404, .cardNotFound))
            let unchanged = try await api.getCard(path: .init(id: card.id)).ok.body.json
            #expect(unchanged.last4 == "1111" && unchanged.expiryYear == 2030)

            // A lost card is locked, then replaced: it stays locked. A closed card's number is free.
            _ = try await api.lockCard(path: .init(id: card.id)).ok
            let locked = try await replace(Self.newPAN).ok.body.json
            #expect(locked.status == .locked && locked.last4 == "5556" && locked.tokenUpdates == [])
            _ = try await api.closeCard(path: .init(id: other.id)).ok
            #expect(try await replace("4242424242424242").ok.body.json.last4 == "4242")
            _ = try await api.closeCard(path: .init(id: card.id)).ok
            #expect(try await replace(Self.newPAN).refused(409, .cardClosed))
        }
    }

    /// What the network did not take is sent again by the retry worker, driven here by the
    /// test clock: no new call from the issuer.
    @Test(arguments: TestEngine.available)
    func whatTheNetworkDidNotTakeIsRetriedUntilItDoes(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                let outbox = server.services.tokenChanges
                let added = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                let down = Components.Schemas.NetworkSettingsRequest(url: "http://127.0.0.1:9", apiKey: h.sandboxKey)
                _ = try await api.setNetworkSettings(body: .json(down)).ok

                let replaced = try await api.replaceCard(
                    path: .init(id: h.cardID), body: .json(.init(pan: Self.newPAN, expiryMonth: 9, expiryYear: 2031))
                ).ok.body.json
                #expect(replaced.last4 == "5556")
                #expect(replaced.tokenUpdates?.map(\.outcome) == [.failed])
                #expect(replaced.tokenUpdates?.first?.errorCode == .networkUnavailable)
                let reissued = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(cardholderName: "Jane Q Appleseed"))
                ).ok.body.json
                #expect(reissued.tokenUpdates?.map(\.outcome) == [.failed])
                var pending = try await outbox.store.tokenChanges(tokenID: added.issuerTokenID)
                #expect(Set(pending.map(\.kind)) == [.replacement, .cardDetails] && pending.allSatisfy { $0.state == .pending })
                #expect(pending.allSatisfy { $0.lastErrorCode == "network_unavailable" && $0.attemptCount == 1 })

                // Not due yet; then due, but the network is still down: tried again, later still.
                #expect(try await outbox.deliverDue() == 0)
                server.clock.advance(by: 31)
                #expect(try await outbox.deliverDue() == 2)
                pending = try await outbox.store.tokenChanges(tokenID: added.issuerTokenID)
                #expect(pending.allSatisfy { $0.state == .pending && $0.attemptCount == 2 })
                #expect(try await outbox.deliverDue() == 0)

                // The network is back: the next pass delivers both, and nothing is left.
                _ = try await api.setNetworkSettings(body: .json(.init(url: h.sandboxURL, apiKey: h.sandboxKey))).ok
                server.clock.advance(by: 61)
                #expect(try await outbox.deliverDue() == 2)
                pending = try await outbox.store.tokenChanges(tokenID: added.issuerTokenID)
                #expect(pending.allSatisfy { $0.state == .delivered }, "\(pending)")
                let token = try #require(await h.network.token(networkTokenRef: added.networkTokenRef))
                #expect(token.fundingPrimaryAccountNumber.unmaskedDigits == Self.newPAN)
                let serial = try #require(added.pass?.serialNumber)
                let pass = await h.wallet.pass(serialNumber: serial)
                #expect(pass?.primaryAccountNumberSuffix == "5556" && pass?.details.cardholderName == "Jane Q Appleseed")
                server.clock.advance(by: 3600)
                #expect(try await outbox.deliverDue() == 0)

                // A change pending for a token that is then deleted is dropped, not sent.
                _ = try await api.setNetworkSettings(body: .json(down)).ok
                _ = try await api.updateCard(path: .init(id: h.cardID), body: .json(.init(cardholderName: "J Appleseed"))).ok
                _ = try await api.setNetworkSettings(body: .json(.init(url: h.sandboxURL, apiKey: h.sandboxKey))).ok
                _ = try await TokenAPITests.transition(server, apiKey: h.apiKey, added.issuerTokenID, .delete).ok
                server.clock.advance(by: 31)
                #expect(try await outbox.deliverDue() == 1)
                let last = try await outbox.store.tokenChanges(tokenID: added.issuerTokenID).last
                #expect(last?.kind == .cardDetails && last?.state == .abandoned)
            }
        }
    }
}
