import Foundation
import HTTPTypes
import OpenAPIRuntime
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// A real server (SQLite) answers every route, successfully and with errors, and every answer
/// is the document's: the generated client decodes it into the generated types, and
/// `DocumentedAnswers` holds it to what decoding does not show (status, headers, bounds, the
/// error codes each response lists). Requests the generated client cannot send go raw and are
/// held to the same `AnswerContract` explicitly.
@Suite struct OpenAPIConformanceTests {
    /// Every answer of a raw request, held to the document as the generated clients' are.
    static func expectDocumented(
        _ response: RawClient.Response, _ method: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let problems = AnswerContract.provisio.problems(
            method: method, path: path, status: response.status, headers: response.headers, body: response.body)
        #expect(problems.isEmpty, "\(method) \(path) → \(response.status): \(problems)", sourceLocation: sourceLocation)
    }

    @Test func everyOperationSucceedsAsDocumented() async throws {
        try await TestServer.run(.sqlite) { server in
            let anyone = server.api()
            _ = try await anyone.getHealth().ok
            _ = try await anyone.getReady().ok
            _ = try await anyone.getMetrics().ok
            _ = try await anyone.getOpenAPIDocument().ok

            // Cards: one with every optional field, one with none.
            let tenant = try await server.makeTenant()
            let key = tenant.apiKey
            let api = server.api(key)
            let full = try await api.createCard(
                body: .json(
                    .init(
                        customerRef: "cust_1", accountRef: "acct_1", pan: "5555 5555 5555 4444", expiryMonth: 12,
                        expiryYear: 30, cardholderName: "  Jane   Appleseed ", productTitle: "Acme Platinum",
                        network: "MASTERCARD", cardArtUrl: "https://cdn.example/art/platinum.png"))
            ).created.body.json
            #expect(full.expiryYear == 2030 && full.cardholderName == "Jane Appleseed" && full.network == .mastercard)
            let fullID = full.id

            let minimal = try await api.createCard(
                body: .json(
                    .init(
                        customerRef: "cust_1", pan: "4111111111111111", expiryMonth: 12, expiryYear: 2030,
                        cardholderName: "Jane Appleseed"))
            ).created.body.json
            #expect(minimal.accountRef == nil && minimal.network == .visa)
            let visaID = minimal.id

            let firstPage = try await api.listCards(query: .init(customerRef: "cust_1", limit: 1)).ok.body.json
            let cursor = try #require(firstPage.nextCursor)
            let secondPage = try await api.listCards(query: .init(customerRef: "cust_1", limit: 1, cursor: cursor)).ok.body.json
            #expect(secondPage.nextCursor == nil)
            #expect(secondPage.data.count == 1)
            _ = try await api.getCard(path: .init(id: fullID)).ok

            // Provisioning from the issuer's backend: both Apple schemes, both push wallets.
            let ecc = try server.applePayRequest()
            let eccPayload = try await api.provisionApplePay(path: .init(id: visaID), body: .json(ecc)).ok.body.json
            #expect(eccPayload.ephemeralPublicKey != nil && eccPayload.wrappedKey == nil)
            let rsa = try server.applePayRequest(scheme: .rsaV2, deviceType: .watch)
            let rsaPayload = try await api.provisionApplePay(path: .init(id: visaID), body: .json(rsa)).ok.body.json
            #expect(rsaPayload.wrappedKey != nil && rsaPayload.ephemeralPublicKey == nil)

            let address = Components.Schemas.PushProvisioningRequest(
                userAddress: .init(
                    name: "Jane Appleseed", address1: "1 Infinite Loop", address2: "Floor 2", locality: "Cupertino",
                    administrativeArea: "CA", countryCode: "us", postalCode: "95014", phoneNumber: "+1 408 555 0100"))
            let google = try await api.provisionGooglePay(path: .init(id: fullID), body: .json(address)).ok.body.json
            #expect(google.userAddress.countryCode == "US")
            let samsung = try await api.provisionSamsungPay(path: .init(id: visaID), body: .json(.init())).ok.body.json
            #expect(samsung.tokenizationProvider == .vi && samsung.lastDigits == "1111")
            // Google Pay's keys: the issuer key made on first read, Google's key set, a rotation.
            let madeKey = try await api.getGooglePaySettings().ok.body.json.issuerSigningKey
            let googleKey = try await GooglePayTestKeys.shared().first.publicKey.armored
            _ = try await api.setGooglePaySettings(body: .json(.init(googleEncryptionKeys: [googleKey]))).ok
            let rotatedKey = try await api.rotateGooglePaySigningKey().ok.body.json.issuerSigningKey
            #expect(rotatedKey.fingerprint != madeKey.fingerprint)

            // A failed attempt, so the attempt list carries error_code.
            var badNonce = ecc
            badNonce.nonce = "not hex or base64!"
            let refusedNonce = try await api.provisionApplePay(path: .init(id: visaID), body: .json(badNonce))
            #expect(refusedNonce.refused(400, .invalidNonce), "\(refusedNonce)")
            let attempts = try await api.listProvisioningAttempts(path: .init(id: visaID)).ok.body.json
            #expect(Set(attempts.data.map(\.outcome)) == [.succeeded, .failed])
            #expect(attempts.data.contains { $0.errorCode == "invalid_nonce" })

            // Credentials for the app.
            let session = try await api.createMobileSession(body: .json(.init(customerRef: "cust_1", ttlSeconds: 600)))
                .created.body.json.token
            let provisionToken = try await api.createProvisionToken(body: .json(.init(cardId: visaID, wallet: .applePay)))
                .created.body.json.provisionToken

            // The app's API, with each kind of credential.
            #expect(try await server.api(session).listMobileCards().ok.body.json.data.count == 2)
            #expect(try await server.api(provisionToken).listMobileCards().ok.body.json.data.count == 1)
            _ = try await server.api(session).provisionApplePayFromMobile(path: .init(id: visaID), body: .json(ecc)).ok
            _ = try await server.api(provisionToken).provisionApplePayFromMobile(path: .init(id: visaID), body: .json(ecc)).ok
            for wallet in [Components.Schemas.Wallet.googlePay, .samsungPay] {
                let pushToken = try await api.createProvisionToken(body: .json(.init(cardId: visaID, wallet: wallet)))
                    .created.body.json.provisionToken
                for credential in [pushToken, session] {
                    let app = server.api(credential)
                    if wallet == .googlePay {
                        _ = try await app.provisionGooglePayFromMobile(path: .init(id: visaID), body: .json(.init())).ok
                    } else {
                        _ = try await app.provisionSamsungPayFromMobile(path: .init(id: visaID), body: .json(.init())).ok
                    }
                }
            }

            // Reissuing, then closing (no tokens yet: nothing to carry).
            let reissued = try await api.updateCard(
                path: .init(id: fullID),
                body: .json(.init(expiryMonth: 6, expiryYear: 2032, cardArtUrl: "https://cdn.example/new.png"))
            ).ok.body.json
            #expect(reissued.expiryYear == 2032 && reissued.tokenUpdates == [])
            #expect(try await api.lockCard(path: .init(id: fullID)).ok.body.json.status == .locked)
            #expect(try await api.unlockCard(path: .init(id: fullID)).ok.body.json.status == .active)
            let replaced = try await api.replaceCard(
                path: .init(id: fullID), body: .json(.init(pan: "5105 1051 0510 5100", expiryMonth: 6, expiryYear: 2032))
            ).ok.body.json
            #expect(replaced.last4 == "5100" && replaced.tokenUpdates == [])
            #expect(try await api.closeCard(path: .init(id: fullID)).ok.body.json.status == .closed)

            // Card products: created, listed, read, changed, given art that is served publicly.
            let product = try await api.createCardProduct(body: .json(.init(name: "Everyday", _default: true)))
                .created.body.json
            #expect(try await api.listCardProducts().ok.body.json.data.map(\.id) == [product.id])
            #expect(try await api.getCardProduct(path: .init(id: product.id)).ok.body.json.name == "Everyday")
            #expect(
                try await api.updateCardProduct(path: .init(id: product.id), body: .json(.init(contactName: "Card services")))
                    .ok.body.json.contactName == "Card services")
            let art = try #require(
                try await api.setCardProductArt(
                    path: .init(id: product.id),
                    body: .json(.init(contentType: .imagePng, data: TestCardArt.valid.base64EncodedString()))
                ).ok.body.json.art)
            _ = try await server.api().getCardArt(path: .init(digest: "\(art.sha256).png")).ok

            // Keys, session revocation and the audit log.
            let reader = try await api.createAPIKey(body: .json(.init(name: "reader", scope: .readOnly))).created.body.json
            #expect(try await api.listAPIKeys().ok.body.json.data.count == 2)
            #expect(try await api.revokeAPIKey(path: .init(id: reader.id)).ok.body.json.revokedAt != nil)
            let revocable = try await api.createMobileSession(body: .json(.init(customerRef: "cust_2"))).created.body.json
            _ = try await api.revokeMobileSession(path: .init(id: revocable.id)).noContent
            _ = try await api.createMobileSession(body: .json(.init(customerRef: "cust_2"))).created
            #expect(try await api.revokeCustomerMobileSessions(query: .init(customerRef: "cust_2")).ok.body.json.revoked == 1)
            let networkKey = try await api.createNetworkKey(body: .json(.init(retirePreviousAfterSeconds: 60))).created.body.json
            #expect(networkKey.networkKey.hasPrefix("prv_nk_") && networkKey.previousKeysRetireAt != nil)
            let audit = try await api.listAuditEvents(query: .init(targetType: "card", limit: 2)).ok.body.json
            #expect(audit.data.count == 2 && audit.nextCursor != nil)

            // Webhooks.
            let endpoint = try await api.createWebhookEndpoint(
                body: .json(.init(url: "http://127.0.0.1:9/hooks", events: [._ast_]))
            ).created.body.json
            _ = try await api.listWebhookEndpoints().ok
            _ = try await api.sendTestWebhook(path: .init(id: endpoint.id)).accepted
            let deliveries = try await api.listWebhookDeliveries(query: .init(endpointId: endpoint.id)).ok.body.json
            let deliveryID = try #require(deliveries.data.first?.id)
            _ = try await api.getWebhookDelivery(path: .init(id: deliveryID)).ok
            _ = try await api.replayWebhookDelivery(path: .init(id: deliveryID)).ok
            let rotated = try await api.rotateWebhookSecret(path: .init(id: endpoint.id), body: .json(.init(overlapSeconds: 60)))
                .ok.body.json
            #expect(rotated.secret != nil && rotated.previousSecretExpiresAt != nil)
            let noDelivery = try await api.getWebhookDelivery(path: .init(id: "whd_nope"))
            #expect(noDelivery.refused(404, .webhookDeliveryNotFound), "\(noDelivery)")

            // Settings: decisioning and the network connection.
            _ = try await api.getDecisioningSettings().ok
            _ = try await api.updateDecisioningSettings(body: .json(.init(minimumAccountScore: 2, webhookTimeoutMs: 5000))).ok
            let incoherent = try await api.updateDecisioningSettings(body: .json(.init(declineAtOrBelowScore: 4)))
            #expect(incoherent.refused(422, .invalidDecisionRules), "\(incoherent)")
            _ = try await api.getNetworkSettings().ok
            _ = try await api.setActivationMethodSettings(body: .json(.init(customerServicePhoneNumber: "+1 800 555 0100"))).ok
            _ = try await api.getActivationMethodSettings().ok

            // Tokens, through the sandbox network: it asks for decisions (green and yellow) and
            // reports events; the issuer lists, reads, activates and transitions, which reach the
            // network through its connector.
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                let network = server.api(h.networkKey)
                _ = try await api.setNetworkSettings(body: .json(.init(url: h.sandboxURL, apiKey: h.sandboxKey))).ok
                let green = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                let greenID = green.issuerTokenID
                await h.network.setRisk(.yellow, forLast4: "1111")
                let yellowPending = try #require(await h.network.outcome(sessionID: try await h.add(on: .watch).sessionID))
                let yellowID = yellowPending.issuerTokenID

                func tokenRequest(_ ref: String, _ recommendation: Components.Schemas.DecisionOutcome)
                    -> Components.Schemas.NetworkTokenRequest
                {
                    .init(
                        pan: SandboxNetworkHarness.pan, expiryMonth: 12, expiryYear: 2030, wallet: .applePay, deviceType: .watch,
                        networkTokenRef: ref, tokenLast4: "0001", deviceAccountIdentifier: "DAI",
                        risk: .init(deviceScore: 5, accountScore: 5, walletRecommendation: recommendation))
                }
                let direct = try await network.requestTokenDecision(body: .json(tokenRequest("ref-direct", .approve)))
                    .ok.body.json
                let tokens = try await api.listTokens(query: .init(cardId: h.cardID)).ok.body.json
                #expect(tokens.data.contains { $0.id == direct.tokenId && $0.networkTokenRef == "ref-direct" })
                _ = try await api.getToken(path: .init(id: greenID)).ok
                let tav = try await api.activateToken(path: .init(id: yellowID), body: .json(.init(mode: .tav))).ok.body.json
                #expect(tav.activationData != nil && tav.validUntil != nil)
                let agent = try await api.activateToken(
                    path: .init(id: yellowID), body: .json(.init(mode: .customerService, reasonCode: "agent_verified"))
                ).ok.body.json
                #expect(agent.state == .active)
                let suspend = Components.Schemas.TokenTransitionRequest(action: .suspend, reasonCode: "fraud_review")
                _ = try await api.transitionToken(path: .init(id: greenID), body: .json(suspend)).ok
                _ = try await api.transitionToken(path: .init(id: greenID), body: .json(.init(action: .resume))).ok

                // The cardholder's own controls, from the app: their tokens, a suspend and resume,
                // and a pending Samsung token activated after the app's own authentication.
                let samsung = try await h.tokens(of: try await h.addToSamsung(SandboxSamsungWallet(tokenService: h.network)))
                let cardholder = server.api(
                    try await api.createMobileSession(body: .json(.init(customerRef: "cust_1"))).created.body.json.token)
                let listed = try await cardholder.listMobileTokens().ok.body.json.data
                #expect(Set([greenID, yellowID, samsung.1.id]).isSubset(of: listed.map(\.id)), "\(listed)")
                for action in [Components.Schemas.MobileTokenTransitionRequest.ActionPayload.suspend, .resume] {
                    _ = try await cardholder.transitionMobileToken(path: .init(id: greenID), body: .json(.init(action: action)))
                        .ok
                }
                let byApp = try await cardholder.activateMobileToken(
                    path: .init(id: samsung.1.id), body: .json(.init(method: .appAuthentication))
                ).ok.body.json
                #expect(byApp.state == .active && byApp.wallet == .samsungPay)

                // The network refuses a change to a token it never issued (409), none is configured
                // (503), and it is unreachable (502).
                func suspendStray() async throws -> Operations.TransitionToken.Output {
                    try await api.transitionToken(path: .init(id: direct.tokenId), body: .json(suspend))
                }
                let refused = try await suspendStray()
                #expect(refused.refused(409, .networkRefused), "\(refused)")
                _ = try await api.clearNetworkSettings().ok
                let unconfigured = try await suspendStray()
                #expect(unconfigured.refused(503, .networkConnectorNotConfigured), "\(unconfigured)")
                _ = try await api.setNetworkSettings(body: .json(.init(url: "http://127.0.0.1:9", apiKey: h.sandboxKey))).ok
                let unreachable = try await suspendStray()
                #expect(unreachable.refused(502, .networkUnavailable), "\(unreachable)")

                // The OTP relay: no endpoint subscribed yet (502), then one that answers.
                _ = try await network.requestTokenDecision(body: .json(tokenRequest("ref-yellow-2", .requireVerification))).ok
                func relay() async throws -> Operations.RelayOneTimeCode.Output {
                    try await network.relayOneTimeCode(path: .init(ref: "ref-yellow-2"), body: .json(.init(code: "482913")))
                }
                let unrelayed = try await relay()
                #expect(unrelayed.refused(502, .otpRelayNotConfigured), "\(unrelayed)")
                let otpReceiver = WebhookReceiver()
                try await otpReceiver.start()
                defer { otpReceiver.stop() }
                otpReceiver.setAnswer(#"{"channels":[{"type":"sms","masked":"+1 ••• ••• 4821"}]}"#)
                _ = try await api.createWebhookEndpoint(
                    body: .json(.init(url: otpReceiver.url, events: [.token_otpRequested]))
                ).created
                #expect(try await relay().ok.body.json.channels.map(\.masked) == ["+1 ••• ••• 4821"])
                let removed = try await network.reportTokenEvent(
                    path: .init(ref: "ref-direct"), body: .json(.init(event: .removedFromWallet))
                ).ok.body.json
                #expect(removed.state == .deleted)
                let noToken = try await api.getToken(path: .init(id: "tok_nope"))
                #expect(noToken.refused(404, .tokenNotFound), "\(noToken)")
            }

            let documented = Set(AnswerContract.provisio.spec.operations.compactMap { $0.object["operationId"]?.stringValue })
            let missing = documented.subtracting(server.answers.succeededOperations)
            #expect(documented.count == OpenAPIDocumentTests.routes.count)
            #expect(missing.isEmpty, "operations without a checked success answer: \(missing.sorted())")
        }
    }

    @Test func errorResponsesAreDocumented() async throws {
        try await TestServer.run(.sqlite) { server in
            let tenant = try await server.makeTenant()
            let key = tenant.apiKey
            let api = server.api(key)
            let other = try await server.makeTenant("Other Bank")
            let cardID = try await server.makeCard(apiKey: key).id
            let secondID = try await server.makeCard(apiKey: key).id
            let otherID = try await server.makeCard(apiKey: other.apiKey).id
            let applePay = try server.applePayRequest()
            let applePath = "/v1/cards/\(cardID)/provisioning/apple-pay"
            var statuses: Set<Int> = []
            func expect(_ output: some APIOutput, _ status: Int, _ code: Components.Schemas.ErrorCode, _ line: Int = #line) {
                statuses.insert(output.status)
                #expect(output.refused(status, code), "line \(line): \(output)")
            }
            func expectRaw(
                _ response: RawClient.Response, _ status: Int, _ code: Components.Schemas.ErrorCode, _ method: String,
                _ path: String, sourceLocation: SourceLocation = #_sourceLocation
            ) {
                statuses.insert(response.status)
                #expect(response.refused(status, code), "\(response.status) \(response.text)", sourceLocation: sourceLocation)
                Self.expectDocumented(response, method, path, sourceLocation: sourceLocation)
            }

            // 401
            expect(try await server.api().listCards(query: .init(customerRef: "cust_1")), 401, .missingCredentials)
            expect(try await server.api("prv_sk_not-a-key").getCard(path: .init(id: cardID)), 401, .invalidCredentials)

            // 400
            var badPAN = IdempotencyAPITests.cardRequest
            badPAN.pan = "4111111111111112"
            expect(try await api.createCard(body: .json(badPAN)), 400, .invalidPan)
            var cvv = try OpenAPIJSON(encoding: IdempotencyAPITests.cardRequest)
            cvv["cvv"] = "123"
            expectRaw(try await server.raw.post("/v1/cards", token: key, body: cvv), 400, .unknownField, "POST", "/v1/cards")
            expectRaw(
                try await server.raw.send(.post, "/v1/mobile-sessions", token: key, body: Data("customer_ref=1".utf8)), 400,
                .invalidJson, "POST", "/v1/mobile-sessions")
            expectRaw(
                try await server.raw.post("/v1/provision-tokens", token: key, body: ["card_id": .string(cardID)] as OpenAPIJSON),
                400, .invalidRequest, "POST", "/v1/provision-tokens")
            expectRaw(
                try await server.raw.post(
                    "/v1/provision-tokens", token: key, body: ["card_id": .string(cardID), "wallet": "paypal"] as OpenAPIJSON),
                400, .invalidWallet, "POST", "/v1/provision-tokens")
            expectRaw(try await server.raw.get("/v1/cards?limit=5", token: key), 400, .invalidParameter, "GET", "/v1/cards")
            expect(
                try await api.listProvisioningAttempts(path: .init(id: cardID), query: .init(cursor: "%%")), 400, .invalidCursor)
            var fridge = try OpenAPIJSON(encoding: applePay)
            fridge["device_type"] = "fridge"
            expectRaw(
                try await server.raw.post(applePath, token: key, body: fridge), 400, .invalidDeviceType, "POST", applePath)
            expectRaw(
                try await server.raw.post(applePath, token: key, body: applePay, headers: ["Idempotency-Key": "has space"]), 400,
                .idempotencyKeyInvalid, "POST", applePath)

            // 403
            expect(try await api.listMobileCards(), 403, .wrongCredentialKind)
            let (_, session) = try await server.services.access.createMobileSession(
                tenantID: tenant.id, customerRef: "cust_1", lifetimeSeconds: 60)
            expect(try await server.api(session).getCard(path: .init(id: cardID)), 403, .wrongCredentialKind)
            let provisionToken = try await api.createProvisionToken(body: .json(.init(cardId: cardID, wallet: .applePay)))
                .created.body.json.provisionToken
            expect(
                try await server.api(provisionToken).provisionApplePayFromMobile(
                    path: .init(id: secondID), body: .json(applePay)),
                403, .tokenScopeMismatch)

            // 404
            expect(try await api.getCard(path: .init(id: otherID)), 404, .cardNotFound)
            expect(try await api.closeCard(path: .init(id: "card_nope")), 404, .cardNotFound)
            let (_, otherCustomer) = try await server.services.access.createMobileSession(
                tenantID: tenant.id, customerRef: "cust_2", lifetimeSeconds: 60)
            expect(
                try await server.api(otherCustomer).provisionApplePayFromMobile(path: .init(id: cardID), body: .json(applePay)),
                404, .cardNotFound)
            // A path no route serves: not an operation, but still the error shape.
            let notFound = try await server.raw.get("/v1/no-such-route", token: key)
            #expect(notFound.refused(404, .routeNotFound), "\(notFound.text)")
            #expect(notFound.header("X-Request-Id") == notFound.error?.requestId)

            // 409
            let app = server.api(provisionToken)
            _ = try await app.provisionApplePayFromMobile(path: .init(id: cardID), body: .json(applePay)).ok
            expect(
                try await app.provisionApplePayFromMobile(path: .init(id: cardID), body: .json(applePay)), 409, .tokenAlreadyUsed)
            _ = try await api.closeCard(path: .init(id: secondID)).ok
            expect(try await api.provisionSamsungPay(path: .init(id: secondID), body: .json(.init())), 409, .cardClosed)
            expect(try await api.createProvisionToken(body: .json(.init(cardId: secondID, wallet: .googlePay))), 409, .cardClosed)

            // 413
            let huge = Components.Schemas.MobileSessionRequest(customerRef: String(repeating: "a", count: 300 * 1024))
            expectRaw(
                try await server.raw.post("/v1/mobile-sessions", token: key, body: huge), 413, .payloadTooLarge, "POST",
                "/v1/mobile-sessions")

            // 422
            var expired = IdempotencyAPITests.cardRequest
            expired.expiryYear = 2025
            expect(try await api.createCard(body: .json(expired)), 422, .cardExpired)
            let unionPay = try await server.makeCard(apiKey: key, network: "unionpay").id
            expect(try await api.provisionGooglePay(path: .init(id: unionPay), body: .json(.init())), 422, .unsupportedNetwork)
            var wrongScheme = applePay
            wrongScheme.encryptionScheme = "RSA_V2"
            expect(try await api.provisionApplePay(path: .init(id: cardID), body: .json(wrongScheme)), 422, .chainWrongKeyType)

            // 401 again: an expired mobile session.
            server.clock.advance(by: 120)
            expect(try await server.api(session).listMobileCards(), 401, .tokenExpired)

            #expect(statuses.isSuperset(of: [400, 401, 403, 404, 409, 413, 422]), "\(statuses.sorted())")
        }
    }

    @Test func idempotentReplaysAreDocumented() async throws {
        try await TestServer.run(.sqlite) { server in
            let key = try await server.makeTenant().apiKey
            // Raw: the replays are compared byte for byte, and held to the document explicitly.
            let body = IdempotencyAPITests.cardRequest
            func post(_ body: some Encodable, _ idempotencyKey: String) async throws -> RawClient.Response {
                let response = try await server.raw.post(
                    "/v1/cards", token: key, body: body, headers: ["Idempotency-Key": idempotencyKey])
                Self.expectDocumented(response, "POST", "/v1/cards")
                return response
            }
            let first = try await post(body, "card-1")
            #expect(first.header("Idempotent-Replayed") == nil)
            let card = try first.decode(Components.Schemas.Card.self)

            let replay = try await post(body, "card-1")
            #expect(replay.status == 201 && replay.header("Idempotent-Replayed") == "true")
            #expect(replay.body == first.body)
            #expect(try replay.decode(Components.Schemas.Card.self) == card)

            var changed = body
            changed.customerRef = "cust_2"
            let reused = try await post(changed, "card-1")
            #expect(reused.refused(422, .idempotencyKeyReused), "\(reused.text)")

            // A stored 4xx is replayed too; its body names the replaying request, not the first.
            var bad = body
            bad.pan = "4111111111111112"
            let refused = try await post(bad, "card-2")
            let replayedRefusal = try await post(bad, "card-2")
            #expect(replayedRefusal.status == 400 && replayedRefusal.header("Idempotent-Replayed") == "true")
            #expect(replayedRefusal.error?.requestId == replayedRefusal.header("X-Request-Id"))
            #expect(replayedRefusal.header("X-Request-Id") != refused.header("X-Request-Id"))
        }
    }

    @Test func expiredCertificateChainIsDocumented() async throws {
        try await TestServer.run(.sqlite) { server in
            let key = try await server.makeTenant().apiKey
            let api = server.api(key)
            let cardID = try await server.makeCard(apiKey: key, expiryYear: 2035).id
            // The sandbox chain is valid for about two years; the card until the end of 2035.
            server.clock.advance(by: 3 * 365 * 24 * 3600)
            let output = try await api.provisionApplePay(path: .init(id: cardID), body: .json(try server.applePayRequest()))
            #expect(output.refused(422, .chainExpired), "\(output)")

            let attempt = try #require(try await api.listProvisioningAttempts(path: .init(id: cardID)).ok.body.json.data.first)
            #expect(attempt.outcome == .failed && attempt.errorCode == "chain_expired")
            #expect(attempt.encryptionScheme == .eccV2 && attempt.deviceType == .phone)
        }
    }

    /// The document the server serves is the one in the source tree, byte for byte, and the
    /// generated code was generated from it: the same operations, the same error codes.
    @Test func servesTheDocumentByteForByte() async throws {
        let source = AnswerContract.provisio.spec.data
        try await TestServer.run(.sqlite) { server in
            // Raw: the bytes and the exact content type.
            let response = try await server.raw.get("/openapi.yaml")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/yaml")
            #expect(response.body == source, "GET /openapi.yaml differs from Sources/ProvisioServer/Resources/openapi.yaml")
            #expect(Data(ProvisioAPIHandler.openAPIDocument.utf8) == source)
            let typed = try await server.api().getOpenAPIDocument().ok.body.yaml
            #expect(try await Data(collecting: typed, upTo: 1 << 20) == source)
        }
        let documented = Set(AnswerContract.provisio.spec.operations.compactMap { $0.object["operationId"]?.stringValue })
        #expect(documented == Self.generatedOperations, "\(documented.symmetricDifference(Self.generatedOperations))")
        let codes = AnswerContract.provisio.spec.root["components"]?["schemas"]?["ErrorCode"]?["enum"]?.arrayValue
        #expect(
            Set(codes?.compactMap(\.stringValue) ?? []) == Set(Components.Schemas.ErrorCode.allCases.map(\.rawValue)),
            "the generated ErrorCode differs from the document's")
    }

    /// Every operation the document lists is routed by the server: without credentials and with
    /// a made-up id it is answered, but never as an unknown route (404 `route_not_found`) or an
    /// unknown method (405), which an unknown path and another method of a known path are.
    @Test func everyDocumentedOperationIsRouted() async throws {
        try await TestServer.run(.sqlite) { server in
            let operations = AnswerContract.provisio.spec.operations
            #expect(operations.count == OpenAPIDocumentTests.routes.count)
            for operation in operations {
                let path = operation.template.replacingOccurrences(
                    of: #"\{[a-z_]+\}"#, with: "probe_1", options: .regularExpression)
                let method = try #require(HTTPRequest.Method(operation.method.uppercased()))
                let answer = try await server.raw.send(method, path, token: nil, body: nil)
                #expect(answer.refusalCode != "route_not_found" && answer.status != 405, "\(operation.key): \(answer.text)")
                #expect(answer.status != 404 || answer.error != nil, "\(operation.key): \(answer.text)")
            }
            let unknown = try await server.raw.get("/v1/probe-of-no-operation")
            #expect(unknown.refused(404, .routeNotFound), "\(unknown.text)")
            let otherMethod = try await server.raw.send(.patch, "/v1/cards", token: nil, body: nil)
            #expect(otherMethod.status == 405 && otherMethod.refusalCode == "method_not_allowed", "\(otherMethod.text)")
        }
    }

    /// The operation ids the generated module was generated with.
    static let generatedOperations: Set<String> = [
        Operations.GetHealth.id, Operations.GetReady.id, Operations.GetMetrics.id, Operations.GetOpenAPIDocument.id,
        Operations.ListCards.id, Operations.CreateCard.id, Operations.GetCard.id, Operations.CloseCard.id,
        Operations.LockCard.id, Operations.UnlockCard.id, Operations.ReplaceCard.id,
        Operations.CreateCardProduct.id, Operations.ListCardProducts.id, Operations.GetCardProduct.id,
        Operations.UpdateCardProduct.id, Operations.SetCardProductArt.id, Operations.GetCardArt.id,
        Operations.ListMobileTokens.id, Operations.TransitionMobileToken.id, Operations.ActivateMobileToken.id,
        Operations.ListProvisioningAttempts.id, Operations.ProvisionApplePay.id, Operations.ProvisionGooglePay.id,
        Operations.ProvisionSamsungPay.id, Operations.CreateMobileSession.id, Operations.CreateProvisionToken.id,
        Operations.ListMobileCards.id, Operations.ProvisionApplePayFromMobile.id, Operations.ProvisionGooglePayFromMobile.id,
        Operations.ProvisionSamsungPayFromMobile.id, Operations.ListWebhookEndpoints.id, Operations.CreateWebhookEndpoint.id,
        Operations.SendTestWebhook.id, Operations.ListWebhookDeliveries.id, Operations.GetWebhookDelivery.id,
        Operations.ReplayWebhookDelivery.id, Operations.ListTokens.id, Operations.GetToken.id, Operations.TransitionToken.id,
        Operations.ActivateToken.id, Operations.GetDecisioningSettings.id, Operations.UpdateDecisioningSettings.id,
        Operations.GetNetworkSettings.id, Operations.SetNetworkSettings.id, Operations.ClearNetworkSettings.id,
        Operations.RequestTokenDecision.id, Operations.ReportTokenEvent.id, Operations.RelayOneTimeCode.id,
        Operations.UpdateCard.id, Operations.RevokeMobileSession.id, Operations.RevokeCustomerMobileSessions.id,
        Operations.ListAPIKeys.id, Operations.CreateAPIKey.id, Operations.RevokeAPIKey.id, Operations.ListAuditEvents.id,
        Operations.RotateWebhookSecret.id, Operations.CreateNetworkKey.id, Operations.GetActivationMethodSettings.id,
        Operations.SetActivationMethodSettings.id, Operations.GetGooglePaySettings.id, Operations.SetGooglePaySettings.id,
        Operations.RotateGooglePaySigningKey.id,
    ]
}
