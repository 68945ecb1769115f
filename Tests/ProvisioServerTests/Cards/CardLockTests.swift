import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// Locking a card suspends its wallet tokens at the network (the passes show it) and stops it
/// being provisioned; unlocking resumes exactly the tokens the lock suspended.
@Suite struct CardLockTests {
    @Test(arguments: TestEngine.available)
    func aLockSuspendsItsTokensAndAnUnlockResumesOnlyThose(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                // Three tokens: on the iPhone, the Watch, and a Samsung phone the issuer suspends
                // for a lost phone first.
                var outcomes: [(issuerTokenID: String, networkTokenRef: String, serial: String?)] = []
                for kind in [SandboxDeviceKind.phone, .watch] {
                    let submission = try await h.add(on: kind)
                    let outcome = try #require(await h.network.outcome(sessionID: submission.sessionID))
                    outcomes.append((outcome.issuerTokenID, outcome.networkTokenRef, outcome.pass?.serialNumber))
                }
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let (samsungToken, samsungIssuerToken) = try await h.tokens(of: try await h.addToSamsung(samsung))
                outcomes.append((samsungIssuerToken.id, samsungToken.networkTokenRef, nil))
                let lost = outcomes[2].issuerTokenID
                _ = try await TokenAPITests.transition(server, apiKey: h.apiKey, lost, .suspend, reason: "device_lost").ok

                let locked = try await api.lockCard(path: .init(id: h.cardID)).ok.body.json
                #expect(locked.status == .locked)
                let updates = Dictionary(uniqueKeysWithValues: (locked.tokenUpdates ?? []).map { ($0.tokenId, $0.outcome) })
                #expect(updates == [outcomes[0].issuerTokenID: .suspended, outcomes[1].issuerTokenID: .suspended])
                for outcome in outcomes {
                    #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.state == .suspended)
                }
                for outcome in outcomes.prefix(2) {
                    let serial = try #require(outcome.serial)
                    #expect(await h.wallet.pass(serialNumber: serial)?.activationState == .suspended)
                }
                let suspension = try #require(
                    try await api.getToken(path: .init(id: outcomes[0].issuerTokenID)).ok.body.json.events?.last)
                #expect(suspension._type == "token.suspended" && suspension.reasonCode == "card_locked")

                // Locked: not provisioned (the network's new request is declined with the reason),
                // and none of its tokens resumed, by the issuer or anyone.
                let provision = try await api.provisionApplePay(
                    path: .init(id: h.cardID), body: .json(try server.applePayRequest()))
                #expect(provision.refused(409, .cardLocked), "\(provision)")
                let decided = try await TokenAPITests.decide(
                    server, networkKey: h.networkKey,
                    TokenAPITests.networkTokenRequest(ref: "ref-while-locked", pan: SandboxNetworkHarness.pan)
                ).ok.body.json
                #expect(decided.decision == .decline && decided.reasons == ["card_locked"], "\(decided)")
                let resume = try await TokenAPITests.transition(server, apiKey: h.apiKey, outcomes[0].issuerTokenID, .resume)
                #expect(resume.refused(409, .cardLocked), "\(resume)")
                // Locking again changes nothing more.
                let again = try await api.lockCard(path: .init(id: h.cardID)).ok.body.json
                #expect(again.status == .locked && again.tokenUpdates == [])

                let unlocked = try await api.unlockCard(path: .init(id: h.cardID)).ok.body.json
                #expect(unlocked.status == .active)
                let resumed = Dictionary(uniqueKeysWithValues: (unlocked.tokenUpdates ?? []).map { ($0.tokenId, $0.outcome) })
                #expect(resumed == [outcomes[0].issuerTokenID: .resumed, outcomes[1].issuerTokenID: .resumed])
                for outcome in outcomes.prefix(2) {
                    #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.state == .active)
                }
                // The lost phone's token stays suspended: its suspension was not the lock's.
                #expect(await h.network.token(networkTokenRef: outcomes[2].networkTokenRef)?.state == .suspended)
                #expect(try await api.getToken(path: .init(id: lost)).ok.body.json.state == .suspended)
                // Provisioned again.
                _ = try await api.provisionApplePay(path: .init(id: h.cardID), body: .json(try server.applePayRequest())).ok
                let audit = try await server.services.audit.events(
                    tenantID: h.tenantID, filter: AuditFilter(targetType: "card"), cursor: nil, limit: 100
                ).items.map(\.action)
                #expect(audit.contains("card.locked") && audit.contains("card.unlocked"))
            }
        }
    }

    @Test func closedAndUnknownCardsAreRefused() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let card = try await server.makeCard(apiKey: apiKey)
            // Unlocking an active card answers it as it is.
            #expect(try await api.unlockCard(path: .init(id: card.id)).ok.body.json.status == .active)
            _ = try await api.lockCard(path: .init(id: card.id)).ok
            // A locked card is reissued like any open card, and closed for good.
            let reissued = try await api.updateCard(
                path: .init(id: card.id), body: .json(.init(expiryMonth: 11, expiryYear: 2031))
            ).ok.body.json
            #expect(reissued.status == .locked && reissued.expiryYear == 2031)
            #expect(try await api.closeCard(path: .init(id: card.id)).ok.body.json.status == .closed)
            #expect(try await api.lockCard(path: .init(id: card.id)).refused(409, .cardClosed))
            #expect(try await api.unlockCard(path: .init(id: card.id)).refused(409, .cardClosed))
            #expect(try await api.lockCard(path: .init(id: "card_unknown")).refused(404, .cardNotFound))
            // Another tenant's card is unknown.
            let (_, otherKey) = try await server.makeTenant("Other Bank")
            let mine = try await server.makeCard(apiKey: apiKey, customerRef: "cust_2")
            #expect(try await server.api(otherKey).lockCard(path: .init(id: mine.id)).refused(404, .cardNotFound))
            #expect(try await api.getCard(path: .init(id: mine.id)).ok.body.json.status == .active)
        }
    }
}
