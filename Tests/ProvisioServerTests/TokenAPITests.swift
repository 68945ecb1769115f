import Crypto
import Foundation
import Logging
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
        let card = try await server.makeCard(apiKey: apiKey, pan: pan)["id"] as! String
        let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
        return Setup(apiKey: apiKey, networkKey: networkKey, cardID: card)
    }

    static func tokenRequest(
        ref: String, pan: String = "4111111111111111", device: Int = 5, account: Int = 5, wallet: String = "approve"
    ) -> [String: Any] {
        [
            "pan": pan, "expiry_month": 12, "expiry_year": 2030, "wallet": "apple_pay", "device_type": "phone",
            "network_token_ref": ref, "token_last4": "9876", "device_account_identifier": "DAI-\(ref)",
            "risk": ["device_score": device, "account_score": account, "wallet_recommendation": wallet],
        ]
    }

    @Test(arguments: TestEngine.available)
    func issuerSuspendResumeDeleteReachTheNetworkAndTheDevice(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let submission = try await h.add()
                let outcome = try #require(await h.network.outcome(sessionID: submission.sessionID))
                let tokenID = outcome.issuerTokenID
                let serial = try #require(outcome.pass?.serialNumber)

                let listed = try await server.client.get("/v1/tokens?card_id=\(h.cardID)", token: h.apiKey)
                #expect((listed.json?["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [tokenID])

                let steps: [(String, String, NetworkTokenState, SandboxPassActivationState?)] = [
                    ("suspend", "suspended", .suspended, .suspended), ("resume", "active", .active, .activated),
                    ("delete", "deleted", .deleted, nil),
                ]
                for (action, state, networkState, passState) in steps {
                    server.clock.advance(by: 1)
                    let response = try await server.client.post(
                        "/v1/tokens/\(tokenID)/transitions", token: h.apiKey,
                        json: ["action": action, "reason_code": "issuer_\(action)"])
                    #expect(response.status == 200 && response.json?["state"] as? String == state, "\(response.text)")
                    #expect(response.json?["network_state"] as? String == networkState.rawValue)
                    // The network made the change, and Wallet shows it on the device.
                    #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.state == networkState)
                    #expect(await h.wallet.pass(serialNumber: serial)?.activationState == passState)
                }
                let token = try await server.client.get("/v1/tokens/\(tokenID)", token: h.apiKey)
                #expect(token.json?["wallet"] as? String == "apple_pay" && token.json?["device_type"] as? String == "phone")
                let events = try #require(token.json?["events"] as? [[String: Any]])
                #expect(
                    events.map { $0["type"] as? String } == [
                        "token.created", "token.activated", "token.suspended", "token.resumed", "token.deleted",
                    ])
                #expect(events.last?["reason_code"] as? String == "issuer_delete" && events.last?["actor"] as? String == "issuer")

                // Deleted is final: refused here, before the network is asked.
                for action in ["suspend", "resume", "delete"] {
                    let refused = try await server.client.post(
                        "/v1/tokens/\(tokenID)/transitions", token: h.apiKey, json: ["action": action])
                    #expect(refused.status == 409 && refused.errorCode == "token_invalid_transition")
                }
                let bad = try await server.client.post(
                    "/v1/tokens/\(tokenID)/transitions", token: h.apiKey, json: ["action": "explode"])
                #expect(bad.status == 400 && bad.errorCode == "invalid_parameter")
                #expect(!token.text.contains("4111111111111111"))
            }
        }
    }

    /// The network is the source of truth for a token: when it cannot be reached, refuses the
    /// key or refuses the change, Provisio records nothing and says why.
    @Test(arguments: TestEngine.available)
    func nothingChangesWhenTheNetworkIsDownRefusesOrIsNotConfigured(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let submission = try await h.add()
                let tokenID = try #require(await h.network.outcome(sessionID: submission.sessionID)?.issuerTokenID)
                func suspend() async throws -> APIClient.Response {
                    try await server.client.post(
                        "/v1/tokens/\(tokenID)/transitions", token: h.apiKey, json: ["action": "suspend"])
                }
                func setNetwork(_ url: String, _ key: String) async throws {
                    let set = try await server.client.send(
                        .put, "/v1/settings/network", token: h.apiKey,
                        body: try JSONSerialization.data(withJSONObject: ["url": url, "api_key": key]))
                    #expect(set.status == 200 && set.json?["source"] as? String == "tenant", "\(set.text)")
                    #expect(!set.text.contains(key))
                }

                try await setNetwork(h.sandboxURL, "sbx_key_wrong_one")
                let rejected = try await suspend()
                #expect(rejected.status == 502 && rejected.errorCode == "network_credentials_rejected", "\(rejected.text)")

                try await setNetwork("http://127.0.0.1:9", h.sandboxKey)
                let down = try await suspend()
                #expect(down.status == 502 && down.errorCode == "network_unavailable", "\(down.text)")

                let cleared = try await server.client.send(.delete, "/v1/settings/network", token: h.apiKey, body: nil)
                #expect(cleared.json?["source"] as? String == "none")
                let unconfigured = try await suspend()
                #expect(unconfigured.status == 503 && unconfigured.errorCode == "network_connector_not_configured")

                // A token the network never issued: it refuses, with its own code in the message.
                try await setNetwork(h.sandboxURL, h.sandboxKey)
                let stray = try await server.client.post(
                    "/v1/network/token-requests", token: h.networkKey, json: Self.tokenRequest(ref: "ref-not-at-network"))
                let strayID = try #require(stray.json?["token_id"] as? String)
                let refused = try await server.client.post(
                    "/v1/tokens/\(strayID)/transitions", token: h.apiKey, json: ["action": "suspend"])
                #expect(refused.status == 409 && refused.errorCode == "network_refused", "\(refused.text)")
                #expect(refused.text.contains("sandbox_network_token_unknown"))

                let token = try await server.client.get("/v1/tokens/\(tokenID)", token: h.apiKey)
                #expect(token.json?["state"] as? String == "active")
                #expect((token.json?["events"] as? [[String: Any]])?.count == 2, "no event was recorded")
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
            let decided = try await server.client.post(
                "/v1/network/token-requests", token: setup.networkKey,
                json: Self.tokenRequest(ref: "ref-yellow", wallet: "require_verification"))
            #expect(decided.json?["decision"] as? String == "require_verification")
            #expect(decided.json?["state"] as? String == "pending_verification")
            #expect(decided.json?["reasons"] as? [String] == ["wallet_recommends_verification"])
            #expect((decided.json?["activation_methods"] as? [String])?.contains("app_to_app") == true)
            let tokenID = try #require(decided.json?["token_id"] as? String)

            // Suspending a pending token is not a thing.
            let early = try await server.client.post(
                "/v1/tokens/\(tokenID)/transitions", token: setup.apiKey, json: ["action": "suspend"])
            #expect(early.status == 409 && early.errorCode == "token_invalid_transition")

            let activation = try await server.client.post(
                "/v1/tokens/\(tokenID)/activation", token: setup.apiKey, json: ["mode": "tav"])
            #expect(activation.status == 200, "\(activation.text)")
            let tav = try #require(activation.json?["activation_data"] as? String)
            // The network verifies it with the issuer's TAV public key.
            try TAVVerifier(publicKey: server.keys.tavSigningKey.publicKey).verify(
                activationData: tav, pan: try PrimaryAccountNumber("4111111111111111"),
                expiry: try CardExpiry(month: 12, year: 2030),
                at: server.clock.now())
            #expect(!activation.text.contains("4111111111111111"))

            let activated = try await server.client.post(
                "/v1/network/tokens/ref-yellow/events", token: setup.networkKey, json: ["event": "activated"])
            #expect(activated.status == 200 && activated.json?["state"] as? String == "active", "\(activated.text)")
            #expect(activated.json?["network_state"] as? String == "activated")
            let again = try await server.client.post(
                "/v1/tokens/\(tokenID)/activation", token: setup.apiKey, json: ["mode": "tav"])
            #expect(again.status == 409 && again.errorCode == "token_invalid_transition")
        }
    }

    @Test(arguments: TestEngine.available)
    func customerServiceActivationAndNetworkOriginatedChanges(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(
                server, defaultRisk: RiskAssessment(deviceScore: 2, accountScore: 5, walletRecommendation: .approve)
            ) { h in
                let submission = try await h.add()
                let outcome = try #require(await h.network.outcome(sessionID: submission.sessionID))
                #expect(outcome.reasons == ["low_device_score"])
                let tokenID = outcome.issuerTokenID
                let serial = try #require(outcome.pass?.serialNumber)
                #expect(await h.wallet.pass(serialNumber: serial)?.activationState == .requiresActivation)
                let noReason = try await server.client.post(
                    "/v1/tokens/\(tokenID)/activation", token: h.apiKey, json: ["mode": "customer_service"])
                #expect(noReason.status == 400 && noReason.errorCode == "invalid_parameter")
                let activated = try await server.client.post(
                    "/v1/tokens/\(tokenID)/activation", token: h.apiKey,
                    json: ["mode": "customer_service", "reason_code": "agent_42_verified_id"])
                #expect(activated.status == 200 && activated.json?["state"] as? String == "active", "\(activated.text)")
                #expect(activated.json?["network_state"] as? String == "active")
                #expect(await h.wallet.pass(serialNumber: serial)?.activationState == .activated)
                #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.state == .active)

                let ref = outcome.networkTokenRef
                _ = try await h.network.reportDeviceLost(networkTokenRef: ref)
                #expect(try await h.issuerToken(tokenID)["state"] as? String == "suspended")
                _ = try await h.network.removeFromWallet(networkTokenRef: ref)
                let removed = try await h.issuerToken(tokenID)
                #expect(removed["state"] as? String == "deleted" && removed["network_state"] as? String == "removed_from_wallet")
                #expect(await h.wallet.pass(serialNumber: serial) == nil)

                let unknownEvent = try await server.client.post(
                    "/v1/network/tokens/\(ref)/events", token: h.networkKey, json: ["event": "melted"])
                #expect(unknownEvent.status == 400)
                let unknownRef = try await server.client.post(
                    "/v1/network/tokens/nope/events", token: h.networkKey, json: ["event": "suspended"])
                #expect(unknownRef.status == 404 && unknownRef.errorCode == "token_not_found")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func redPathClosedCardsUnknownCardsAndRetries(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let setup = try await setUp(server)
            let red = try await server.client.post(
                "/v1/network/token-requests", token: setup.networkKey, json: Self.tokenRequest(ref: "ref-red", wallet: "decline"))
            #expect(red.json?["decision"] as? String == "decline" && red.json?["state"] as? String == "declined")
            #expect(red.json?["reasons"] as? [String] == ["wallet_recommends_decline"])
            let redID = try #require(red.json?["token_id"] as? String)
            let refused = try await server.client.post(
                "/v1/tokens/\(redID)/transitions", token: setup.apiKey, json: ["action": "resume"])
            #expect(refused.status == 409)

            // The network retries the same request: the same token and decision come back.
            let retry = try await server.client.post(
                "/v1/network/token-requests", token: setup.networkKey, json: Self.tokenRequest(ref: "ref-red", wallet: "approve"))
            #expect(retry.json?["token_id"] as? String == redID && retry.json?["decision"] as? String == "decline")

            _ = try await server.client.post("/v1/cards/\(setup.cardID)/close", token: setup.apiKey, json: [String: Any]())
            let closed = try await server.client.post(
                "/v1/network/token-requests", token: setup.networkKey, json: Self.tokenRequest(ref: "ref-closed"))
            #expect(closed.json?["decision"] as? String == "decline" && closed.json?["reasons"] as? [String] == ["card_closed"])

            let unknown = try await server.client.post(
                "/v1/network/token-requests", token: setup.networkKey,
                json: Self.tokenRequest(ref: "ref-x", pan: "5555555555554444"))
            #expect(unknown.status == 404 && unknown.errorCode == "card_not_found")
            #expect(!unknown.text.contains("5555555555554444"))
            let badRisk = try await server.client.post(
                "/v1/network/token-requests", token: setup.networkKey, json: Self.tokenRequest(ref: "ref-y", device: 9))
            #expect(badRisk.status == 400 && badRisk.errorCode == "invalid_risk_assessment")
        }
    }

    @Test(arguments: TestEngine.available)
    func credentialsAndTenantsStayApart(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let a = try await setUp(server)
            let (tenantB, apiKeyB) = try await server.makeTenant("B")
            let networkB = try await server.services.access.createNetworkKey(tenantID: tenantB)
            // Tenant B's network key cannot find tenant A's card, even with its PAN.
            let crossed = try await server.client.post(
                "/v1/network/token-requests", token: networkB, json: Self.tokenRequest(ref: "ref-b"))
            #expect(crossed.status == 404 && crossed.errorCode == "card_not_found")
            let wrongKind = try await server.client.post(
                "/v1/network/token-requests", token: a.apiKey, json: Self.tokenRequest(ref: "r"))
            #expect(wrongKind.status == 403 && wrongKind.errorCode == "wrong_credential_kind")
            let networkOnIssuer = try await server.client.get("/v1/tokens?card_id=\(a.cardID)", token: a.networkKey)
            #expect(networkOnIssuer.status == 403 && networkOnIssuer.errorCode == "wrong_credential_kind")

            let decided = try await server.client.post(
                "/v1/network/token-requests", token: a.networkKey, json: Self.tokenRequest(ref: "ref-a"))
            let tokenID = try #require(decided.json?["token_id"] as? String)
            let otherTenant = try await server.client.get("/v1/tokens/\(tokenID)", token: apiKeyB)
            #expect(otherTenant.status == 404 && otherTenant.errorCode == "token_not_found")
            let otherTenantList = try await server.client.get("/v1/tokens?card_id=\(a.cardID)", token: apiKeyB)
            #expect(otherTenantList.status == 404 && otherTenantList.errorCode == "card_not_found")
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentTransitionsHaveOneWinner(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let submission = try await h.add()
                let tokenID = try #require(await h.network.outcome(sessionID: submission.sessionID)?.issuerTokenID)
                let body = try JSONSerialization.data(withJSONObject: ["action": "suspend"])
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<6 {
                        group.addTask {
                            try await server.client.send(.post, "/v1/tokens/\(tokenID)/transitions", token: h.apiKey, body: body)
                                .status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
                #expect(statuses.filter { $0 == 409 }.count == 5, "\(statuses)")
                let events =
                    try await server.client.get("/v1/tokens/\(tokenID)", token: h.apiKey).json?["events"] as? [[String: Any]]
                #expect(events?.filter { $0["type"] as? String == "token.suspended" }.count == 1)
            }
        }
    }

    @Test func everyChangeArrivesAsASignedWebhookWithoutThePAN() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(.sqlite, clock: .live()) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let endpoint = try await server.client.post(
                    "/v1/webhook-endpoints", token: h.apiKey,
                    json: [
                        "url": receiver.url,
                        "events": ["token.created", "token.activated", "token.suspended", "provisioning.declined"],
                    ])
                let secret = try #require(endpoint.json?["secret"] as? String)
                let submission = try await h.add()
                let tokenID = try #require(await h.network.outcome(sessionID: submission.sessionID)?.issuerTokenID)
                _ = try await server.client.post(
                    "/v1/tokens/\(tokenID)/transitions", token: h.apiKey, json: ["action": "suspend"])
                _ = try await server.client.post(
                    "/v1/tokens/\(tokenID)/transitions", token: h.apiKey, json: ["action": "resume"])
                _ = try await server.client.post(
                    "/v1/network/token-requests", token: h.networkKey, json: Self.tokenRequest(ref: "ref-w2", wallet: "decline"))

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
                    let body = try #require(try JSONSerialization.jsonObject(with: item.body) as? [String: Any])
                    types.append(body["type"] as? String ?? "")
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
            let noQuery = try await server.client.get("/v1/tokens", token: h.apiKey)
            #expect(noQuery.status == 400 && noQuery.errorCode == "invalid_parameter", "\(noQuery.text)")
            #expect(noQuery.text.contains("The query parameter card_id is required."))
            let otherQuery = try await server.client.get("/v1/tokens?limit=5", token: h.apiKey)
            #expect(otherQuery.status == 400 && otherQuery.errorCode == "invalid_parameter", "\(otherQuery.text)")
            let cursorOnly = try await server.client.get("/v1/tokens?cursor=abc", token: h.apiKey)
            #expect(cursorOnly.status == 400 && cursorOnly.errorCode == "invalid_parameter", "\(cursorOnly.text)")
            let badLimit = try await server.client.get("/v1/tokens?card_id=\(h.cardID)&limit=x", token: h.apiKey)
            #expect(badLimit.status == 400 && badLimit.errorCode == "invalid_parameter", "\(badLimit.text)")
            let zeroLimit = try await server.client.get("/v1/tokens?card_id=\(h.cardID)&limit=0", token: h.apiKey)
            #expect(zeroLimit.status == 400 && zeroLimit.errorCode == "invalid_parameter", "\(zeroLimit.text)")
            let empty = try await server.client.get("/v1/tokens?card_id=\(h.cardID)", token: h.apiKey)
            #expect(empty.status == 200 && (empty.json?["data"] as? [Any])?.isEmpty == true, "\(empty.text)")
            #expect(empty.json?["next_cursor"] == nil)
            let longID = String(repeating: "t", count: 65)
            let long = try await server.client.get("/v1/tokens/\(longID)", token: h.apiKey)
            #expect(long.status == 404 && long.errorCode == "token_not_found", "\(long.text)")
            let badAction = try await server.client.post(
                "/v1/tokens/tok_nope/transitions", token: h.apiKey, json: ["action": "explode"])
            #expect(badAction.status == 400 && badAction.errorCode == "invalid_parameter", "\(badAction.text)")
            let badMode = try await server.client.post("/v1/tokens/tok_nope/activation", token: h.apiKey, json: ["mode": "x"])
            #expect(badMode.status == 400 && badMode.errorCode == "invalid_parameter", "\(badMode.text)")
            let unknown = try await server.client.post(
                "/v1/tokens/tok_nope/transitions", token: h.apiKey, json: ["action": "suspend"])
            #expect(unknown.status == 404 && unknown.errorCode == "token_not_found", "\(unknown.text)")
        }
    }

    /// Values outside the document's sets keep the codes the hand-written routes gave them, and
    /// no answer repeats the PAN.
    @Test func networkValuesKeepTheirCodes() async throws {
        try await TestServer.run(.sqlite) { server in
            let h = try await setUp(server)
            var cases: [([String: Any], String)] = []
            var request = Self.tokenRequest(ref: "ref-w")
            request["wallet"] = "paypal"
            cases.append((request, "invalid_wallet"))
            request = Self.tokenRequest(ref: "ref-d")
            request["device_type"] = "fridge"
            cases.append((request, "invalid_device_type"))
            cases.append((Self.tokenRequest(ref: "ref-r", wallet: "maybe"), "invalid_risk_assessment"))
            cases.append((Self.tokenRequest(ref: "ref-p", pan: "4111111111111112"), "invalid_pan"))
            request = Self.tokenRequest(ref: "ref-u")
            request["risk"] = ["device_score": 5, "account_score": 5, "wallet_recommendation": "approve", "x": 1]
            cases.append((request, "unknown_field"))
            for (body, code) in cases {
                let refused = try await server.client.post("/v1/network/token-requests", token: h.networkKey, json: body)
                #expect(refused.status == 400 && refused.errorCode == code, "\(code): \(refused.text)")
                #expect(!refused.text.contains("411111111111111"))
            }
            let decided = try await server.client.post(
                "/v1/network/token-requests", token: h.networkKey, json: Self.tokenRequest(ref: "ref-ok"))
            #expect(decided.status == 200 && decided.json?["decision"] as? String == "approve", "\(decided.text)")
            #expect(decided.json?["activation_methods"] == nil && !decided.text.contains("4111111111111111"))
            let event = try await server.client.post(
                "/v1/network/tokens/ref-ok/events", token: h.networkKey, json: ["event": "device_lost"])
            #expect(event.status == 200 && event.json?["state"] as? String == "suspended", "\(event.text)")
            #expect(event.json?["network_state"] as? String == "device_lost" && event.json?["events"] == nil)
            let badOTP = try await server.client.post(
                "/v1/network/tokens/ref-ok/otp", token: h.networkKey, json: ["code": "123456", "expires_at": "tomorrow"])
            #expect(badOTP.status == 400 && badOTP.errorCode == "invalid_request", "\(badOTP.text)")
            let noToken = try await server.client.post(
                "/v1/network/tokens/nope/otp", token: h.networkKey, json: ["code": "123456"])
            #expect(noToken.status == 404 && noToken.errorCode == "token_not_found", "\(noToken.text)")
        }
    }
}
