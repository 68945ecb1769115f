import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// The cardholder's own controls from the issuer's app: their tokens on every device, a lost
/// phone's token suspended and resumed, a sold one deleted, a pending one activated after the
/// app authenticated them; never another customer's, never with the wrong credential.
@Suite struct MobileTokenControlsTests {
    @Test(arguments: TestEngine.available)
    func theCardholderSeesAndChangesTheirOwnTokensOnly(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                var refs: [String: (tokenID: String, networkTokenRef: String, serial: String)] = [:]
                for kind in [SandboxDeviceKind.phone, .watch] {
                    let outcome = try #require(await h.network.outcome(sessionID: try await h.add(on: kind).sessionID))
                    refs[kind.rawValue] = (
                        outcome.issuerTokenID, outcome.networkTokenRef, try #require(outcome.pass?.serialNumber)
                    )
                }
                let phone = try #require(refs["phone"])
                // The harness's card is cust_1's. Another customer, with a card of their own.
                let session = try await api.createMobileSession(body: .json(.init(customerRef: "cust_1"))).created.body.json.token
                let other = try await api.createMobileSession(body: .json(.init(customerRef: "cust_2"))).created.body.json.token
                let app = server.api(session)

                let listed = try await app.listMobileTokens().ok.body.json.data
                #expect(Set(listed.map(\.id)) == Set(refs.values.map(\.tokenID)))
                #expect(listed.allSatisfy { $0.cardId == h.cardID && $0.cardLast4 == "1111" && $0.wallet == .applePay })
                #expect(Set(listed.compactMap(\.deviceType)) == [.phone, .watch])
                #expect(listed.allSatisfy { $0.state == .active })
                // Each carries its pass's device account identifier: an app Wallet opened for a pass
                // finds the token by what PassKit gives it.
                for (kind, ref) in refs {
                    let pass = try #require(await h.wallet.pass(serialNumber: ref.serial), "\(kind)")
                    #expect(
                        listed.contains { $0.id == ref.tokenID && $0.deviceAccountIdentifier == pass.deviceAccountIdentifier })
                }
                #expect(try await server.api(other).listMobileTokens().ok.body.json.data.isEmpty)

                // A lost phone: suspended at the network and on the device, then found again.
                let suspended = try await app.transitionMobileToken(
                    path: .init(id: phone.tokenID), body: .json(.init(action: .suspend))
                ).ok.body.json
                #expect(suspended.state == .suspended)
                #expect(await h.network.token(networkTokenRef: phone.networkTokenRef)?.state == .suspended)
                #expect(await h.wallet.pass(serialNumber: phone.serial)?.activationState == .suspended)
                let history = try #require(try await api.getToken(path: .init(id: phone.tokenID)).ok.body.json.events)
                #expect(history.last?._type == "token.suspended" && history.last?.reasonCode == "customer_request")
                // The audit log names the cardholder's session as the actor.
                let audit = try await server.services.audit.events(
                    tenantID: h.tenantID, filter: AuditFilter(targetType: "token", targetID: phone.tokenID), cursor: nil,
                    limit: 10
                ).items
                #expect(audit.first?.actor.kind == .mobileSession, "\(audit)")

                // Another customer's session cannot touch it, nor learn it exists.
                let stranger = try await server.api(other).transitionMobileToken(
                    path: .init(id: phone.tokenID), body: .json(.init(action: .resume)))
                #expect(stranger.refused(404, .tokenNotFound), "\(stranger)")
                #expect(await h.network.token(networkTokenRef: phone.networkTokenRef)?.state == .suspended)

                // While the card is locked, the cardholder cannot resume it either.
                _ = try await api.lockCard(path: .init(id: h.cardID)).ok
                let whileLocked = try await app.transitionMobileToken(
                    path: .init(id: phone.tokenID), body: .json(.init(action: .resume)))
                #expect(whileLocked.refused(409, .cardLocked), "\(whileLocked)")
                _ = try await api.unlockCard(path: .init(id: h.cardID)).ok

                let resumed = try await app.transitionMobileToken(
                    path: .init(id: phone.tokenID), body: .json(.init(action: .resume))
                ).ok.body.json
                #expect(resumed.state == .active)
                #expect(await h.wallet.pass(serialNumber: phone.serial)?.activationState == .activated)

                // A device sold: deleted, and no longer listed.
                let watch = try #require(refs["watch"])
                _ = try await app.transitionMobileToken(path: .init(id: watch.tokenID), body: .json(.init(action: .delete))).ok
                #expect(await h.network.token(networkTokenRef: watch.networkTokenRef)?.state == .deleted)
                #expect(try await app.listMobileTokens().ok.body.json.data.map(\.id) == [phone.tokenID])
                let again = try await app.transitionMobileToken(
                    path: .init(id: watch.tokenID), body: .json(.init(action: .resume)))
                #expect(again.refused(409, .tokenInvalidTransition), "\(again)")

                // Only a mobile session: not a provision token, not an API key.
                let push = try await api.createProvisionToken(body: .json(.init(cardId: h.cardID, wallet: .applePay)))
                    .created.body.json.provisionToken
                #expect(try await server.api(push).listMobileTokens().refused(403, .wrongCredentialKind))
                #expect(try await api.listMobileTokens().refused(403, .wrongCredentialKind))
                let pushChange = try await server.api(push).transitionMobileToken(
                    path: .init(id: phone.tokenID), body: .json(.init(action: .suspend)))
                #expect(pushChange.refused(403, .wrongCredentialKind), "\(pushChange)")
                // An action outside the list cannot be sent typed.
                let bad = try await server.raw.post(
                    "/v1/mobile/tokens/\(phone.tokenID)/transitions", token: session, body: ["action": "freeze"] as OpenAPIJSON)
                #expect(bad.refused(400, .invalidParameter), "\(bad.text)")
                #expect(!server.answers.all.contains { $0.text.contains(SandboxNetworkHarness.pan) })
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func theIssuersAppActivatesAPendingTokenAfterItsOwnAuthentication(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                let api = server.api(h.apiKey)
                let outcome = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                let serial = try #require(outcome.pass?.serialNumber)
                #expect(await h.wallet.pass(serialNumber: serial)?.activationState == .requiresActivation)
                let session = try await api.createMobileSession(body: .json(.init(customerRef: "cust_1"))).created.body.json.token
                let other = try await api.createMobileSession(body: .json(.init(customerRef: "cust_2"))).created.body.json.token
                let app = server.api(session)
                let pending = try #require(try await app.listMobileTokens().ok.body.json.data.first)
                #expect(pending.state == .pendingVerification && pending.cardLast4 == "1111")

                // Not another customer's.
                let stranger = try await server.api(other).activateMobileToken(
                    path: .init(id: pending.id), body: .json(.init(method: .appAuthentication)))
                #expect(stranger.refused(404, .tokenNotFound), "\(stranger)")

                let activated = try await app.activateMobileToken(
                    path: .init(id: pending.id), body: .json(.init(method: .appAuthentication))
                ).ok.body.json
                #expect(activated.state == .active)
                #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.state == .active)
                #expect(await h.wallet.pass(serialNumber: serial)?.activationState == .activated)
                // Recorded as its own method: the issuer's app, neither TAV nor customer service.
                let event = try #require(try await api.getToken(path: .init(id: pending.id)).ok.body.json.events?.last)
                #expect(event._type == "token.activated" && event.actor == .issuer && event.reasonCode == "app_authentication")
                #expect(server.logs.text.contains("app_authentication"))

                // Once active there is nothing to activate.
                let twice = try await app.activateMobileToken(
                    path: .init(id: pending.id), body: .json(.init(method: .appAuthentication)))
                #expect(twice.refused(409, .tokenInvalidTransition), "\(twice)")
                let bad = try await server.raw.post(
                    "/v1/mobile/tokens/\(pending.id)/activation", token: session, body: ["method": "tav"] as OpenAPIJSON)
                #expect(bad.status == 400)
                #expect(bad.error?.code == .invalidParameter, "\(bad.text)")
            }
        }
    }
}
