import Crypto
import Foundation
import Logging
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// Tokens end to end over HTTP: the network asks for decisions and reports events with its
/// own key, the issuer reads, suspends, resumes, deletes and activates, and every change is a
/// signed webhook.
@Suite struct TokenAPITests {
    struct Setup {
        let apiKey: String
        let networkKey: String
        let cardID: String
    }

    func setUp(_ server: TestServer, pan: String = "4111111111111111") async throws -> Setup {
        let (tenantID, apiKey) = try await server.makeTenant()
        let card = try await server.makeCard(apiKey: apiKey, pan: pan).id
        let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
        return Setup(apiKey: apiKey, networkKey: networkKey, cardID: card)
    }

    /// What the card network sends when a wallet asks for a token.
    static func networkTokenRequest(
        ref: String, pan: String = "4111111111111111", device: Int = 5, account: Int = 5,
        recommendation: Components.Schemas.DecisionOutcome = .approve
    ) -> Components.Schemas.NetworkTokenRequest {
        Components.Schemas.NetworkTokenRequest(
            pan: pan, expiryMonth: 12, expiryYear: 2030, wallet: .applePay, deviceType: .phone, networkTokenRef: ref,
            tokenLast4: "9876", deviceAccountIdentifier: "DAI-\(ref)",
            risk: .init(deviceScore: device, accountScore: account, walletRecommendation: recommendation))
    }

    /// `POST /v1/network/token-requests` with the network's key.
    static func decide(_ server: TestServer, networkKey: String, _ request: Components.Schemas.NetworkTokenRequest)
        async throws -> Operations.RequestTokenDecision.Output
    {
        try await server.api(networkKey).requestTokenDecision(body: .json(request))
    }

    static func transition(
        _ server: TestServer, apiKey: String, _ tokenID: String,
        _ action: Components.Schemas.TokenTransitionRequest.ActionPayload,
        reason: String? = nil
    ) async throws -> Operations.TransitionToken.Output {
        try await server.api(apiKey).transitionToken(
            path: .init(id: tokenID), body: .json(.init(action: action, reasonCode: reason)))
    }

    @Test(arguments: TestEngine.available)
    func issuerSuspendResumeDeleteReachTheNetworkAndTheDevice(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                let submission = try await h.add()
                let outcome = try #require(await h.network.outcome(sessionID: submission.sessionID))
                let tokenID = outcome.issuerTokenID
                let serial = try #require(outcome.pass?.serialNumber)

                let listed = try await api.listTokens(query: .init(cardId: h.cardID)).ok.body.json
                #expect(listed.data.map(\.id) == [tokenID])

                let steps:
                    [(
                        Components.Schemas.TokenTransitionRequest.ActionPayload, Components.Schemas.TokenState,
                        NetworkTokenState, SandboxPassActivationState?
                    )] = [
                        (.suspend, .suspended, .suspended, .suspended), (.resume, .active, .active, .activated),
                        (.delete, .deleted, .deleted, nil),
                    ]
                for (action, state, networkState, passState) in steps {
                    server.clock.advance(by: 1)
                    let token = try await Self.transition(
                        server, apiKey: h.apiKey, tokenID, action, reason: "issuer_\(action.rawValue)"
                    ).ok.body.json
                    #expect(token.state == state)
                    #expect(token.networkState == networkState.rawValue)
                    // The network made the change, and Wallet shows it on the device.
                    #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.state == networkState)
                    #expect(await h.wallet.pass(serialNumber: serial)?.activationState == passState)
                }
                let token = try await api.getToken(path: .init(id: tokenID)).ok.body.json
                #expect(token.wallet == .applePay && token.deviceType == .phone)
                let events = try #require(token.events)
                #expect(
                    events.map(\._type) == [
                        "token.created", "token.activated", "token.suspended", "token.resumed", "token.deleted",
                    ])
                #expect(events.last?.reasonCode == "issuer_delete" && events.last?.actor == .issuer)

                // Deleted is final: refused here, before the network is asked.
                for action in Components.Schemas.TokenTransitionRequest.ActionPayload.allCases {
                    let refused = try await Self.transition(server, apiKey: h.apiKey, tokenID, action)
                    #expect(refused.refused(409, .tokenInvalidTransition), "\(refused)")
                }
                // An action outside the document's enum cannot be sent typed.
                let bad = try await server.raw.post(
                    "/v1/tokens/\(tokenID)/transitions", token: h.apiKey, body: ["action": "explode"] as OpenAPIJSON)
                #expect(bad.refused(400, .invalidParameter), "\(bad.text)")
                #expect(!server.answers.all.contains { $0.text.contains("4111111111111111") })
            }
        }
    }

    /// The network is the source of truth for a token: when it cannot be reached, refuses the
    /// key or refuses the change, Provisio records nothing and says why.
    @Test(arguments: TestEngine.available)
    func nothingChangesWhenTheNetworkIsDownRefusesOrIsNotConfigured(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                let submission = try await h.add()
                let tokenID = try #require(await h.network.outcome(sessionID: submission.sessionID)?.issuerTokenID)
                func suspend() async throws -> Operations.TransitionToken.Output {
                    try await Self.transition(server, apiKey: h.apiKey, tokenID, .suspend)
                }
                func setNetwork(_ url: String, _ key: String) async throws {
                    let set = try await api.setNetworkSettings(body: .json(.init(url: url, apiKey: key))).ok.body.json
                    #expect(set.source == .tenant)
                    #expect(!(server.answers.all.last?.text.contains(key) ?? true))
                }

                try await setNetwork(h.sandboxURL, "sbx_key_wrong_one")
                let rejected = try await suspend()
                #expect(rejected.refused(502, .networkCredentialsRejected), "\(rejected)")

                try await setNetwork("http://127.0.0.1:9", h.sandboxKey)
                let down = try await suspend()
                #expect(down.refused(502, .networkUnavailable), "\(down)")

                let cleared = try await api.clearNetworkSettings().ok.body.json
                #expect(cleared.source == Components.Schemas.NetworkSettings.SourcePayload.none)
                let unconfigured = try await suspend()
                #expect(unconfigured.refused(503, .networkConnectorNotConfigured), "\(unconfigured)")

                // A token the network never issued: it refuses, with its own code in the message.
                try await setNetwork(h.sandboxURL, h.sandboxKey)
                let stray = try await Self.decide(
                    server, networkKey: h.networkKey, Self.networkTokenRequest(ref: "ref-not-at-network")
                ).ok.body.json
                let refused = try await Self.transition(server, apiKey: h.apiKey, stray.tokenId, .suspend)
                #expect(refused.refused(409, .networkRefused), "\(refused)")
                #expect(refused.refusal?.error.message.contains("sandbox_network_token_unknown") == true)

                let token = try await api.getToken(path: .init(id: tokenID)).ok.body.json
                #expect(token.state == .active)
                #expect(token.events?.count == 2, "no event was recorded")
                #expect(await h.wallet.passes(on: .phone).first?.activationState == .activated)
                // And with the network back, the change goes through.
                #expect(try await suspend().status == 200)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func yellowPathWithInAppTAVThenNetworkActivation(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let setup = try await setUp(server)
            let api = server.api(setup.apiKey)
            let decided = try await Self.decide(
                server, networkKey: setup.networkKey,
                Self.networkTokenRequest(ref: "ref-yellow", recommendation: .requireVerification)
            ).ok.body.json
            #expect(decided.decision == .requireVerification)
            #expect(decided.state == .pendingVerification)
            #expect(decided.reasons == ["wallet_recommends_verification"])
            #expect(decided.activationMethods?.contains(.appToApp) == true)
            let tokenID = decided.tokenId

            // Suspending a pending token is not a thing.
            let early = try await Self.transition(server, apiKey: setup.apiKey, tokenID, .suspend)
            #expect(early.refused(409, .tokenInvalidTransition), "\(early)")

            let activation = try await api.activateToken(path: .init(id: tokenID), body: .json(.init(mode: .tav))).ok.body.json
            let tav = try #require(activation.activationData)
            // The network verifies it with the issuer's TAV public key.
            try TAVVerifier(publicKey: server.keys.tavSigningKey.publicKey).verify(
                activationData: tav, pan: try PrimaryAccountNumber("4111111111111111"),
                expiry: try CardExpiry(month: 12, year: 2030),
                at: server.clock.now())
            #expect(!server.answers.all.contains { $0.text.contains("4111111111111111") })

            let activated = try await server.api(setup.networkKey).reportTokenEvent(
                path: .init(ref: "ref-yellow"), body: .json(.init(event: .activated))
            ).ok.body.json
            #expect(activated.state == .active)
            #expect(activated.networkState == "activated")
            let again = try await api.activateToken(path: .init(id: tokenID), body: .json(.init(mode: .tav)))
            #expect(again.refused(409, .tokenInvalidTransition), "\(again)")
        }
    }

    @Test(arguments: TestEngine.available)
    func customerServiceActivationAndNetworkOriginatedChanges(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(
                server, defaultRisk: RiskAssessment(deviceScore: 2, accountScore: 5, walletRecommendation: .approve)
            ) { h in
                let api = server.api(h.apiKey)
                let submission = try await h.add()
                let outcome = try #require(await h.network.outcome(sessionID: submission.sessionID))
                #expect(outcome.reasons == ["low_device_score"])
                let tokenID = outcome.issuerTokenID
                let serial = try #require(outcome.pass?.serialNumber)
                #expect(await h.wallet.pass(serialNumber: serial)?.activationState == .requiresActivation)
                let noReason = try await api.activateToken(path: .init(id: tokenID), body: .json(.init(mode: .customerService)))
                #expect(noReason.refused(400, .invalidParameter), "\(noReason)")
                let activated = try await api.activateToken(
                    path: .init(id: tokenID), body: .json(.init(mode: .customerService, reasonCode: "agent_42_verified_id"))
                ).ok.body.json
                #expect(activated.state == .active)
                #expect(activated.networkState == "active")
                #expect(await h.wallet.pass(serialNumber: serial)?.activationState == .activated)
                #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.state == .active)

                let ref = outcome.networkTokenRef
                _ = try await h.network.reportDeviceLost(networkTokenRef: ref)
                #expect(try await api.getToken(path: .init(id: tokenID)).ok.body.json.state == .suspended)
                _ = try await h.network.removeFromWallet(networkTokenRef: ref)
                let removed = try await api.getToken(path: .init(id: tokenID)).ok.body.json
                #expect(removed.state == .deleted && removed.networkState == "removed_from_wallet")
                #expect(await h.wallet.pass(serialNumber: serial) == nil)

                // An event outside the document's enum cannot be sent typed.
                let unknownEvent = try await server.raw.post(
                    "/v1/network/tokens/\(ref)/events", token: h.networkKey, body: ["event": "melted"] as OpenAPIJSON)
                #expect(unknownEvent.status == 400 && unknownEvent.error != nil, "\(unknownEvent.text)")
                let unknownRef = try await server.api(h.networkKey).reportTokenEvent(
                    path: .init(ref: "nope"), body: .json(.init(event: .suspended)))
                #expect(unknownRef.refused(404, .tokenNotFound), "\(unknownRef)")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func redPathClosedCardsUnknownCardsAndRetries(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let setup = try await setUp(server)
            func decide(_ request: Components.Schemas.NetworkTokenRequest) async throws -> Operations.RequestTokenDecision.Output
            {
                try await Self.decide(server, networkKey: setup.networkKey, request)
            }
            let red = try await decide(Self.networkTokenRequest(ref: "ref-red", recommendation: .decline)).ok.body.json
            #expect(red.decision == .decline && red.state == .declined)
            #expect(red.reasons == ["wallet_recommends_decline"])
            let refused = try await Self.transition(server, apiKey: setup.apiKey, red.tokenId, .resume)
            #expect(refused.status == 409, "\(refused)")

            // The network retries the same request: the same token and decision come back.
            let retry = try await decide(Self.networkTokenRequest(ref: "ref-red", recommendation: .approve)).ok.body.json
            #expect(retry.tokenId == red.tokenId && retry.decision == .decline)

            _ = try await server.api(setup.apiKey).closeCard(path: .init(id: setup.cardID)).ok
            let closed = try await decide(Self.networkTokenRequest(ref: "ref-closed")).ok.body.json
            #expect(closed.decision == .decline && closed.reasons == ["card_closed"])

            let unknown = try await decide(Self.networkTokenRequest(ref: "ref-x", pan: "5555555555554444"))
            #expect(unknown.refused(404, .cardNotFound), "\(unknown)")
            #expect(!server.answers.all.contains { $0.text.contains("5555555555554444") })
            let badRisk = try await decide(Self.networkTokenRequest(ref: "ref-y", device: 9))
            #expect(badRisk.refused(400, .invalidRiskAssessment), "\(badRisk)")
        }
    }

    @Test(arguments: TestEngine.available)
    func credentialsAndTenantsStayApart(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let a = try await setUp(server)
            let (tenantB, apiKeyB) = try await server.makeTenant("B")
            let networkB = try await server.services.access.createNetworkKey(tenantID: tenantB)
            // Tenant B's network key cannot find tenant A's card, even with its PAN.
            let crossed = try await Self.decide(server, networkKey: networkB, Self.networkTokenRequest(ref: "ref-b"))
            #expect(crossed.refused(404, .cardNotFound), "\(crossed)")
            let wrongKind = try await Self.decide(server, networkKey: a.apiKey, Self.networkTokenRequest(ref: "r"))
            #expect(wrongKind.refused(403, .wrongCredentialKind), "\(wrongKind)")
            let networkOnIssuer = try await server.api(a.networkKey).listTokens(query: .init(cardId: a.cardID))
            #expect(networkOnIssuer.refused(403, .wrongCredentialKind), "\(networkOnIssuer)")

            let decided = try await Self.decide(server, networkKey: a.networkKey, Self.networkTokenRequest(ref: "ref-a"))
            let tokenID = try decided.ok.body.json.tokenId
            let otherTenant = try await server.api(apiKeyB).getToken(path: .init(id: tokenID))
            #expect(otherTenant.refused(404, .tokenNotFound), "\(otherTenant)")
            let otherTenantList = try await server.api(apiKeyB).listTokens(query: .init(cardId: a.cardID))
            #expect(otherTenantList.refused(404, .cardNotFound), "\(otherTenantList)")
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentTransitionsHaveOneWinner(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let submission = try await h.add()
                let tokenID = try #require(await h.network.outcome(sessionID: submission.sessionID)?.issuerTokenID)
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<6 {
                        group.addTask { try await Self.transition(server, apiKey: h.apiKey, tokenID, .suspend).status }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
                #expect(statuses.filter { $0 == 409 }.count == 5, "\(statuses)")
                let events = try await server.api(h.apiKey).getToken(path: .init(id: tokenID)).ok.body.json.events
                #expect(events?.filter { $0._type == "token.suspended" }.count == 1)
            }
        }
    }

    @Test func everyChangeArrivesAsASignedWebhookWithoutThePAN() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(.sqlite, clock: .live()) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let endpoint = try await server.api(h.apiKey).createWebhookEndpoint(
                    body: .json(
                        .init(
                            url: receiver.url,
                            events: [.token_created, .token_activated, .token_suspended, .provisioning_declined]))
                ).created.body.json
                let secret = try #require(endpoint.secret)
                let submission = try await h.add()
                let tokenID = try #require(await h.network.outcome(sessionID: submission.sessionID)?.issuerTokenID)
                _ = try await Self.transition(server, apiKey: h.apiKey, tokenID, .suspend).ok
                _ = try await Self.transition(server, apiKey: h.apiKey, tokenID, .resume).ok
                _ = try await Self.decide(
                    server, networkKey: h.networkKey, Self.networkTokenRequest(ref: "ref-w2", recommendation: .decline)
                ).ok

                let worker = server.services.webhookWorker(
                    sender: nil, policy: WebhookDeliveryTests.fastPolicy, logger: Logger(label: "w"))
                for _ in 0..<5 { try await worker.deliverDue() }
                let received = receiver.deliveries
                let verifier = try WebhookVerifier(secret: secret)
                var types: [String] = []
                for item in received {
                    try verifier.verify(
                        id: item.id, timestamp: item.timestamp, signatureHeader: item.signature, body: item.body, at: Date())
                    #expect(!String(decoding: item.body, as: UTF8.self).contains("4111111111111111"))
                    // Every one of these carries the API's token.
                    let event = try WebhookEvent<Components.Schemas.Token>(item.body)
                    #expect(event.data.cardId == h.cardID)
                    types.append(event.type)
                }
                // token.resumed was not subscribed to.
                #expect(
                    types.sorted() == [
                        "provisioning.declined", "token.activated", "token.created", "token.created", "token.suspended",
                    ])
            }
        }
    }

    /// The generated code reads the query before the handler runs; what it cannot read keeps
    /// the codes the hand-written route answered (`GeneratedRequestError`), and a path id that
    /// cannot be a token's is still `token_not_found`.
    @Test func queryAndPathErrorsKeepTheirCodes() async throws {
        try await TestServer.run(.sqlite) { server in
            let h = try await setUp(server)
            let api = server.api(h.apiKey)
            // No filter at all, and a limit that is not an integer (which cannot be sent typed).
            let noQuery = try await server.raw.get("/v1/tokens", token: h.apiKey)
            #expect(noQuery.refused(400, .invalidParameter), "\(noQuery.text)")
            #expect(noQuery.error?.message.contains("at least one of card_id") == true)
            let otherQuery = try await server.raw.get("/v1/tokens?limit=5", token: h.apiKey)
            #expect(otherQuery.refused(400, .invalidParameter), "\(otherQuery.text)")
            let cursorOnly = try await server.raw.get("/v1/tokens?cursor=abc", token: h.apiKey)
            #expect(cursorOnly.refused(400, .invalidParameter), "\(cursorOnly.text)")
            let badLimit = try await server.raw.get("/v1/tokens?card_id=\(h.cardID)&limit=x", token: h.apiKey)
            #expect(badLimit.refused(400, .invalidParameter), "\(badLimit.text)")
            let zeroLimit = try await api.listTokens(query: .init(cardId: h.cardID, limit: 0))
            #expect(zeroLimit.refused(400, .invalidParameter), "\(zeroLimit)")
            let empty = try await api.listTokens(query: .init(cardId: h.cardID)).ok.body.json
            #expect(empty.data.isEmpty && empty.nextCursor == nil)
            let longID = String(repeating: "t", count: 65)
            let long = try await api.getToken(path: .init(id: longID))
            #expect(long.refused(404, .tokenNotFound), "\(long)")
            // An action or mode outside the document's enums cannot be sent typed.
            let badAction = try await server.raw.post(
                "/v1/tokens/tok_nope/transitions", token: h.apiKey, body: ["action": "explode"] as OpenAPIJSON)
            #expect(badAction.refused(400, .invalidParameter), "\(badAction.text)")
            let badMode = try await server.raw.post(
                "/v1/tokens/tok_nope/activation", token: h.apiKey, body: ["mode": "x"] as OpenAPIJSON)
            #expect(badMode.refused(400, .invalidParameter), "\(badMode.text)")
            let unknown = try await Self.transition(server, apiKey: h.apiKey, "tok_nope", .suspend)
            #expect(unknown.refused(404, .tokenNotFound), "\(unknown)")
        }
    }

    /// Values outside the document's sets keep the codes the hand-written routes gave them, and
    /// no answer repeats the PAN.
    @Test func networkValuesKeepTheirCodes() async throws {
        try await TestServer.run(.sqlite) { server in
            let h = try await setUp(server)
            let network = server.api(h.networkKey)
            // Values outside an enum, and an unknown field, cannot be sent typed.
            func raw(_ ref: String, _ change: (inout OpenAPIJSON) -> Void) throws -> OpenAPIJSON {
                var request = try OpenAPIJSON(encoding: Self.networkTokenRequest(ref: ref))
                change(&request)
                return request
            }
            let cases: [(OpenAPIJSON, Components.Schemas.ErrorCode)] = [
                (try raw("ref-w") { $0["wallet"] = "paypal" }, .invalidWallet),
                (try raw("ref-d") { $0["device_type"] = "fridge" }, .invalidDeviceType),
                (try raw("ref-r") { $0["risk"]?["wallet_recommendation"] = "maybe" }, .invalidRiskAssessment),
                (try raw("ref-u") { $0["risk"]?["x"] = 1 }, .unknownField),
            ]
            for (body, code) in cases {
                let refused = try await server.raw.post("/v1/network/token-requests", token: h.networkKey, body: body)
                #expect(refused.refused(400, code), "\(code): \(refused.text)")
                #expect(!refused.text.contains("411111111111111"))
            }
            let badPAN = try await network.requestTokenDecision(
                body: .json(Self.networkTokenRequest(ref: "ref-p", pan: "4111111111111112")))
            #expect(badPAN.refused(400, .invalidPan), "\(badPAN)")
            #expect(!(server.answers.all.last?.text.contains("411111111111111") ?? true))
            let decided = try await network.requestTokenDecision(body: .json(Self.networkTokenRequest(ref: "ref-ok")))
                .ok.body.json
            #expect(decided.decision == .approve && decided.activationMethods == nil)
            #expect(!(server.answers.all.last?.text.contains("4111111111111111") ?? true))
            let event = try await network.reportTokenEvent(path: .init(ref: "ref-ok"), body: .json(.init(event: .deviceLost)))
                .ok.body.json
            #expect(event.state == .suspended)
            #expect(event.networkState == "device_lost" && event.events == nil)
            // A timestamp that is not one cannot be sent typed.
            let badOTP = try await server.raw.post(
                "/v1/network/tokens/ref-ok/otp", token: h.networkKey,
                body: ["code": "123456", "expires_at": "tomorrow"] as OpenAPIJSON)
            #expect(badOTP.refused(400, .invalidRequest), "\(badOTP.text)")
            let noToken = try await network.relayOneTimeCode(path: .init(ref: "nope"), body: .json(.init(code: "123456")))
            #expect(noToken.refused(404, .tokenNotFound), "\(noToken)")
        }
    }
}
