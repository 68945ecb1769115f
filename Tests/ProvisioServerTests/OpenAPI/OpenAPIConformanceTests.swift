import Foundation
import HTTPTypes
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// A real server (SQLite) answers every route, successfully and with errors, and every answer
/// matches the document: the status is documented for the operation, the body matches the
/// schema, the headers are the documented ones and error codes are among those listed.
@Suite struct OpenAPIConformanceTests {
    let spec: OpenAPISpec

    init() throws {
        spec = try OpenAPISpec.load()
    }

    @Test func everyOperationSucceedsAsDocumented() async throws {
        let spec = self.spec
        try await TestServer.run(.sqlite) { server in
            var conformance = OpenAPIConformance(spec: spec)
            let client = server.client

            // Operations.
            conformance.check(try await client.get("/health"), "GET", "/health")
            conformance.check(try await client.get("/ready"), "GET", "/ready")
            conformance.check(try await client.get("/metrics"), "GET", "/metrics")
            conformance.check(try await client.get("/openapi.yaml"), "GET", "/openapi.yaml")

            // Cards: one with every optional field, one with none.
            let tenant = try await server.makeTenant()
            let key = tenant.apiKey
            let full: [String: Any] = [
                "customer_ref": "cust_1", "account_ref": "acct_1", "pan": "5555 5555 5555 4444", "expiry_month": 12,
                "expiry_year": 30, "cardholder_name": "  Jane   Appleseed ", "product_title": "Acme Platinum",
                "network": "MASTERCARD", "card_art_url": "https://cdn.example/art/platinum.png",
            ]
            let created = try await client.post("/v1/cards", token: key, json: full)
            #expect(created.status == 201)
            let fullCard = conformance.check(created, "POST", "/v1/cards", request: full)
            #expect(fullCard?["expiry_year"] == .integer(2030))
            let fullID = try #require(fullCard?["id"]?.stringValue)

            let minimal: [String: Any] = [
                "customer_ref": "cust_1", "pan": "4111111111111111", "expiry_month": 12, "expiry_year": 2030,
                "cardholder_name": "Jane Appleseed",
            ]
            let createdMinimal = try await client.post("/v1/cards", token: key, json: minimal)
            let minimalCard = conformance.check(createdMinimal, "POST", "/v1/cards", request: minimal)
            #expect(minimalCard?["account_ref"] == nil && minimalCard?["network"] == .string("visa"))
            let visaID = try #require(minimalCard?["id"]?.stringValue)

            let page1 = try await client.get("/v1/cards?customer_ref=cust_1&limit=1", token: key)
            let firstPage = conformance.check(page1, "GET", "/v1/cards")
            let cursor = try #require(firstPage?["next_cursor"]?.stringValue)
            let page2 = try await client.get("/v1/cards?customer_ref=cust_1&limit=1&cursor=\(cursor)", token: key)
            let secondPage = conformance.check(page2, "GET", "/v1/cards")
            #expect(secondPage?["next_cursor"] == nil)
            #expect(secondPage?["data"]?.arrayValue?.count == 1)
            conformance.check(try await client.get("/v1/cards/\(fullID)", token: key), "GET", "/v1/cards/\(fullID)")

            // Provisioning from the issuer's backend: both Apple schemes, both push wallets.
            let ecc = try server.applePayBody()
            let eccPath = "/v1/cards/\(visaID)/provisioning/apple-pay"
            let eccPayload = conformance.check(
                try await client.post(eccPath, token: key, json: ecc), "POST", eccPath, request: ecc)
            #expect(eccPayload?["ephemeral_public_key"] != nil && eccPayload?["wrapped_key"] == nil)

            let rsa = try server.applePayBody(scheme: .rsaV2, deviceType: "watch")
            let rsaPayload = conformance.check(
                try await client.post(eccPath, token: key, json: rsa), "POST", eccPath, request: rsa)
            #expect(rsaPayload?["wrapped_key"] != nil && rsaPayload?["ephemeral_public_key"] == nil)

            let address: [String: Any] = [
                "user_address": [
                    "name": "Jane Appleseed", "address1": "1 Infinite Loop", "address2": "Floor 2", "locality": "Cupertino",
                    "administrative_area": "CA", "country_code": "us", "postal_code": "95014", "phone_number": "+1 408 555 0100",
                ]
            ]
            let googlePath = "/v1/cards/\(fullID)/provisioning/google-pay"
            let google = conformance.check(
                try await client.post(googlePath, token: key, json: address), "POST", googlePath, request: address)
            #expect(google?["user_address"]?["country_code"] == .string("US"))
            let samsungPath = "/v1/cards/\(visaID)/provisioning/samsung-pay"
            let samsung = conformance.check(
                try await client.post(samsungPath, token: key, json: [String: Any]()), "POST", samsungPath,
                request: [String: Any]())
            #expect(samsung?["user_address"]?["name"] == .string("Jane Appleseed"))

            // A failed attempt, so the attempt list carries error_code.
            var badNonce = ecc
            badNonce["nonce"] = "not hex or base64!"
            conformance.check(try await client.post(eccPath, token: key, json: badNonce), "POST", eccPath)
            let attemptsPath = "/v1/cards/\(visaID)/provisioning-attempts"
            let attempts = conformance.check(try await client.get(attemptsPath, token: key), "GET", attemptsPath)
            let outcomes = attempts?["data"]?.arrayValue?.compactMap { $0["outcome"]?.stringValue } ?? []
            #expect(outcomes.contains("succeeded") && outcomes.contains("failed"))

            // Credentials for the app.
            let sessionBody: [String: Any] = ["customer_ref": "cust_1", "ttl_seconds": 600]
            let session = conformance.check(
                try await client.post("/v1/mobile-sessions", token: key, json: sessionBody), "POST", "/v1/mobile-sessions",
                request: sessionBody)
            let sessionToken = try #require(session?["token"]?.stringValue)
            let tokenBody: [String: Any] = ["card_id": visaID, "wallet": "apple_pay"]
            let token = conformance.check(
                try await client.post("/v1/provision-tokens", token: key, json: tokenBody), "POST", "/v1/provision-tokens",
                request: tokenBody)
            let provisionToken = try #require(token?["provision_token"]?.stringValue)

            // The app's API, with each kind of credential.
            let sessionCards = conformance.check(
                try await client.get("/v1/mobile/cards", token: sessionToken), "GET", "/v1/mobile/cards")
            #expect(sessionCards?["data"]?.arrayValue?.count == 2)
            let tokenCards = conformance.check(
                try await client.get("/v1/mobile/cards", token: provisionToken), "GET", "/v1/mobile/cards")
            #expect(tokenCards?["data"]?.arrayValue?.count == 1)
            let mobilePath = "/v1/mobile/cards/\(visaID)/provisioning/apple-pay"
            conformance.check(
                try await client.post(mobilePath, token: sessionToken, json: ecc), "POST", mobilePath, request: ecc)
            conformance.check(
                try await client.post(mobilePath, token: provisionToken, json: ecc), "POST", mobilePath, request: ecc)
            for (wallet, path) in [("google_pay", "google-pay"), ("samsung_pay", "samsung-pay")] {
                let pushTokenBody: [String: Any] = ["card_id": visaID, "wallet": wallet]
                let pushToken = try #require(
                    conformance.check(
                        try await client.post("/v1/provision-tokens", token: key, json: pushTokenBody), "POST",
                        "/v1/provision-tokens",
                        request: pushTokenBody)?["provision_token"]?.stringValue)
                let pushPath = "/v1/mobile/cards/\(visaID)/provisioning/\(path)"
                let empty: [String: Any] = [:]
                conformance.check(
                    try await client.post(pushPath, token: pushToken, json: empty), "POST", pushPath, request: empty)
                conformance.check(
                    try await client.post(pushPath, token: sessionToken, json: empty), "POST", pushPath, request: empty)
            }

            // Closing.
            let closePath = "/v1/cards/\(fullID)/close"
            let closed = conformance.check(try await client.post(closePath, token: key, json: [String: Any]()), "POST", closePath)
            #expect(closed?["status"] == .string("closed"))

            // Webhooks.
            let endpointBody: [String: Any] = ["url": "http://127.0.0.1:9/hooks", "events": ["*"]]
            let endpoint = conformance.check(
                try await client.post("/v1/webhook-endpoints", token: key, json: endpointBody), "POST", "/v1/webhook-endpoints",
                request: endpointBody)
            let endpointID = try #require(endpoint?["id"]?.stringValue)
            conformance.check(try await client.get("/v1/webhook-endpoints", token: key), "GET", "/v1/webhook-endpoints")
            let testPath = "/v1/webhook-endpoints/\(endpointID)/test"
            conformance.check(try await client.post(testPath, token: key, json: [String: Any]()), "POST", testPath)
            let deliveries = conformance.check(
                try await client.get("/v1/webhook-deliveries?endpoint_id=\(endpointID)", token: key), "GET",
                "/v1/webhook-deliveries")
            let deliveryID = try #require(deliveries?["data"]?.arrayValue?.first?["id"]?.stringValue)
            let deliveryPath = "/v1/webhook-deliveries/\(deliveryID)"
            conformance.check(try await client.get(deliveryPath, token: key), "GET", deliveryPath)
            conformance.check(
                try await client.post(deliveryPath + "/replay", token: key, json: [String: Any]()), "POST",
                deliveryPath + "/replay")
            conformance.check(
                try await client.get("/v1/webhook-deliveries/whd_nope", token: key), "GET", "/v1/webhook-deliveries/whd_nope")

            // Settings: decisioning and the network connection.
            conformance.check(try await client.get("/v1/settings/decisioning", token: key), "GET", "/v1/settings/decisioning")
            let rules: [String: Any] = ["minimum_account_score": 2, "webhook_timeout_ms": 1500]
            conformance.check(
                try await client.send(
                    .put, "/v1/settings/decisioning", token: key, body: try JSONSerialization.data(withJSONObject: rules)),
                "PUT", "/v1/settings/decisioning", request: rules)
            let incoherent: [String: Any] = ["decline_at_or_below_score": 4]
            conformance.check(
                try await client.send(
                    .put, "/v1/settings/decisioning", token: key, body: try JSONSerialization.data(withJSONObject: incoherent)),
                "PUT", "/v1/settings/decisioning", request: incoherent)
            conformance.check(try await client.get("/v1/settings/network", token: key), "GET", "/v1/settings/network")

            // Tokens, through the sandbox network: it asks for decisions (green and yellow) and
            // reports events; the issuer lists, reads, activates and transitions, which reach the
            // network through its connector.
            conformance = try await SandboxNetworkHarness.run(server) { [conformance] h in
                var conformance = conformance
                let (key, networkKey) = (h.apiKey, h.networkKey)
                let network: [String: Any] = ["url": h.sandboxURL, "api_key": h.sandboxKey]
                conformance.check(
                    try await client.send(
                        .put, "/v1/settings/network", token: key, body: try JSONSerialization.data(withJSONObject: network)),
                    "PUT", "/v1/settings/network", request: network)
                let green = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                let greenID = green.issuerTokenID
                await h.network.setRisk(.yellow, forLast4: "1111")
                let yellowPending = try #require(await h.network.outcome(sessionID: try await h.add(on: .watch).sessionID))
                let yellowID = yellowPending.issuerTokenID

                func tokenRequest(_ ref: String, _ recommendation: String) -> [String: Any] {
                    [
                        "pan": SandboxNetworkHarness.pan, "expiry_month": 12, "expiry_year": 2030, "wallet": "apple_pay",
                        "device_type": "watch", "network_token_ref": ref, "token_last4": "0001",
                        "device_account_identifier": "DAI",
                        "risk": ["device_score": 5, "account_score": 5, "wallet_recommendation": recommendation],
                    ]
                }
                let direct = tokenRequest("ref-direct", "approve")
                conformance.check(
                    try await client.post("/v1/network/token-requests", token: networkKey, json: direct), "POST",
                    "/v1/network/token-requests", request: direct)
                conformance.check(try await client.get("/v1/tokens?card_id=\(h.cardID)", token: key), "GET", "/v1/tokens")
                conformance.check(try await client.get("/v1/tokens/\(greenID)", token: key), "GET", "/v1/tokens/\(greenID)")
                let tavBody: [String: Any] = ["mode": "tav"]
                let activationPath = "/v1/tokens/\(yellowID)/activation"
                conformance.check(
                    try await client.post(activationPath, token: key, json: tavBody), "POST", activationPath, request: tavBody)
                let csBody: [String: Any] = ["mode": "customer_service", "reason_code": "agent_verified"]
                conformance.check(
                    try await client.post(activationPath, token: key, json: csBody), "POST", activationPath, request: csBody)
                let suspend: [String: Any] = ["action": "suspend", "reason_code": "fraud_review"]
                let transitionPath = "/v1/tokens/\(greenID)/transitions"
                conformance.check(
                    try await client.post(transitionPath, token: key, json: suspend), "POST", transitionPath, request: suspend)
                let resumeAgain: [String: Any] = ["action": "resume"]
                conformance.check(
                    try await client.post(transitionPath, token: key, json: resumeAgain), "POST", transitionPath,
                    request: resumeAgain)
                // The network refuses a change to a token it never issued (409), and is unreachable (502).
                let directID =
                    try #require(
                        try await client.get("/v1/tokens?card_id=\(h.cardID)", token: key).json?["data"] as? [[String: Any]]
                    ).first { $0["network_token_ref"] as? String == "ref-direct" }?["id"] as? String
                let strayPath = "/v1/tokens/\(directID ?? "")/transitions"
                conformance.check(
                    try await client.post(strayPath, token: key, json: suspend), "POST", strayPath, request: suspend)
                conformance.check(
                    try await client.send(.delete, "/v1/settings/network", token: key, body: nil), "DELETE",
                    "/v1/settings/network")
                conformance.check(
                    try await client.post(strayPath, token: key, json: suspend), "POST", strayPath, request: suspend)
                let unreachable: [String: Any] = ["url": "http://127.0.0.1:9", "api_key": h.sandboxKey]
                _ = try await client.send(
                    .put, "/v1/settings/network", token: key, body: try JSONSerialization.data(withJSONObject: unreachable))
                conformance.check(
                    try await client.post(strayPath, token: key, json: suspend), "POST", strayPath, request: suspend)

                // The OTP relay: no endpoint subscribed yet (502), then one that answers.
                let otp: [String: Any] = ["code": "482913"]
                let yellow2 = tokenRequest("ref-yellow-2", "require_verification")
                _ = try await client.post("/v1/network/token-requests", token: networkKey, json: yellow2)
                let otpPath = "/v1/network/tokens/ref-yellow-2/otp"
                conformance.check(try await client.post(otpPath, token: networkKey, json: otp), "POST", otpPath, request: otp)
                let otpReceiver = WebhookReceiver()
                try await otpReceiver.start()
                defer { otpReceiver.stop() }
                otpReceiver.setAnswer(#"{"channels":[{"type":"sms","masked":"+1 ••• ••• 4821"}]}"#)
                _ = try await client.post(
                    "/v1/webhook-endpoints", token: key, json: ["url": otpReceiver.url, "events": ["token.otp_requested"]])
                conformance.check(try await client.post(otpPath, token: networkKey, json: otp), "POST", otpPath, request: otp)
                let removed: [String: Any] = ["event": "removed_from_wallet"]
                let eventPath = "/v1/network/tokens/ref-direct/events"
                conformance.check(
                    try await client.post(eventPath, token: networkKey, json: removed), "POST", eventPath, request: removed)
                conformance.check(try await client.get("/v1/tokens/tok_nope", token: key), "GET", "/v1/tokens/tok_nope")
                return conformance
            }

            let missing = OpenAPIDocumentTests.routes.subtracting(conformance.operationsWithSuccess)
            #expect(missing.isEmpty, "operations without a checked success response: \(missing.sorted())")
        }
    }

    @Test func errorResponsesAreDocumented() async throws {
        let spec = self.spec
        try await TestServer.run(.sqlite) { server in
            var conformance = OpenAPIConformance(spec: spec)
            let client = server.client
            let tenant = try await server.makeTenant()
            let key = tenant.apiKey
            let other = try await server.makeTenant("Other Bank")
            let cardID = try #require(try await server.makeCard(apiKey: key)["id"] as? String)
            let secondID = try #require(try await server.makeCard(apiKey: key)["id"] as? String)
            let otherID = try #require(try await server.makeCard(apiKey: other.apiKey)["id"] as? String)
            let applePay = try server.applePayBody()
            let applePath = "/v1/cards/\(cardID)/provisioning/apple-pay"

            func expectCode(
                _ response: APIClient.Response, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation
            ) {
                #expect(
                    response.status == status && response.errorCode == code, "\(response.status) \(response.text)",
                    sourceLocation: sourceLocation)
            }

            // 401
            var response = try await client.get("/v1/cards?customer_ref=cust_1")
            expectCode(response, 401, "missing_credentials")
            conformance.check(response, "GET", "/v1/cards")
            response = try await client.get("/v1/cards/\(cardID)", token: "prv_sk_not-a-key")
            expectCode(response, 401, "invalid_credentials")
            conformance.check(response, "GET", "/v1/cards/\(cardID)")

            // 400
            var badPAN: [String: Any] = [
                "customer_ref": "cust_1", "pan": "4111111111111112", "expiry_month": 12, "expiry_year": 2030,
                "cardholder_name": "Jane Appleseed",
            ]
            response = try await client.post("/v1/cards", token: key, json: badPAN)
            expectCode(response, 400, "invalid_pan")
            conformance.check(response, "POST", "/v1/cards")
            badPAN["pan"] = "4111111111111111"
            badPAN["cvv"] = "123"
            response = try await client.post("/v1/cards", token: key, json: badPAN)
            expectCode(response, 400, "unknown_field")
            conformance.check(response, "POST", "/v1/cards")
            response = try await client.send(.post, "/v1/mobile-sessions", token: key, body: Data("customer_ref=1".utf8))
            expectCode(response, 400, "invalid_json")
            conformance.check(response, "POST", "/v1/mobile-sessions")
            response = try await client.post("/v1/provision-tokens", token: key, json: ["card_id": cardID])
            expectCode(response, 400, "invalid_request")
            conformance.check(response, "POST", "/v1/provision-tokens")
            response = try await client.post("/v1/provision-tokens", token: key, json: ["card_id": cardID, "wallet": "paypal"])
            expectCode(response, 400, "invalid_wallet")
            conformance.check(response, "POST", "/v1/provision-tokens")
            response = try await client.get("/v1/cards?limit=5", token: key)
            expectCode(response, 400, "invalid_parameter")
            conformance.check(response, "GET", "/v1/cards")
            response = try await client.get("/v1/cards/\(cardID)/provisioning-attempts?cursor=%25%25", token: key)
            expectCode(response, 400, "invalid_cursor")
            conformance.check(response, "GET", "/v1/cards/\(cardID)/provisioning-attempts")
            var fridge = applePay
            fridge["device_type"] = "fridge"
            response = try await client.post(applePath, token: key, json: fridge)
            expectCode(response, 400, "invalid_device_type")
            conformance.check(response, "POST", applePath)
            response = try await client.post(applePath, token: key, json: applePay, headers: ["Idempotency-Key": "has space"])
            expectCode(response, 400, "idempotency_key_invalid")
            conformance.check(response, "POST", applePath)

            // 403
            response = try await client.get("/v1/mobile/cards", token: key)
            expectCode(response, 403, "wrong_credential_kind")
            conformance.check(response, "GET", "/v1/mobile/cards")
            let (_, session) = try await server.services.access.createMobileSession(
                tenantID: tenant.id, customerRef: "cust_1", lifetimeSeconds: 60)
            response = try await client.get("/v1/cards/\(cardID)", token: session)
            expectCode(response, 403, "wrong_credential_kind")
            conformance.check(response, "GET", "/v1/cards/\(cardID)")
            let tokenJSON = try await client.post(
                "/v1/provision-tokens", token: key, json: ["card_id": cardID, "wallet": "apple_pay"]
            ).json
            let provisionToken = try #require(tokenJSON?["provision_token"] as? String)
            let secondPath = "/v1/mobile/cards/\(secondID)/provisioning/apple-pay"
            response = try await client.post(secondPath, token: provisionToken, json: applePay)
            expectCode(response, 403, "token_scope_mismatch")
            conformance.check(response, "POST", secondPath)

            // 404
            response = try await client.get("/v1/cards/\(otherID)", token: key)
            expectCode(response, 404, "card_not_found")
            conformance.check(response, "GET", "/v1/cards/\(otherID)")
            response = try await client.post("/v1/cards/card_nope/close", token: key, json: [String: Any]())
            expectCode(response, 404, "card_not_found")
            conformance.check(response, "POST", "/v1/cards/card_nope/close")
            let (_, otherCustomer) = try await server.services.access.createMobileSession(
                tenantID: tenant.id, customerRef: "cust_2", lifetimeSeconds: 60)
            let mobilePath = "/v1/mobile/cards/\(cardID)/provisioning/apple-pay"
            response = try await client.post(mobilePath, token: otherCustomer, json: applePay)
            expectCode(response, 404, "card_not_found")
            conformance.check(response, "POST", mobilePath)
            // A path no route serves: not an operation, but still the error shape.
            response = try await client.get("/v1/no-such-route", token: key)
            expectCode(response, 404, "route_not_found")
            let notFound = try OpenAPIJSON.parse(response.body)
            #expect(try spec.validator.firstMismatch(notFound, try spec.validator.schema(named: "Error")) == nil)
            #expect(response.header("X-Request-Id") == notFound["error"]?["request_id"]?.stringValue)

            // 409
            response = try await client.post(mobilePath, token: provisionToken, json: applePay)
            #expect(response.status == 200)
            response = try await client.post(mobilePath, token: provisionToken, json: applePay)
            expectCode(response, 409, "token_already_used")
            conformance.check(response, "POST", mobilePath)
            response = try await client.post("/v1/cards/\(secondID)/close", token: key, json: [String: Any]())
            #expect(response.status == 200)
            let closedPath = "/v1/cards/\(secondID)/provisioning/samsung-pay"
            response = try await client.post(closedPath, token: key, json: [String: Any]())
            expectCode(response, 409, "card_closed")
            conformance.check(response, "POST", closedPath)
            response = try await client.post(
                "/v1/provision-tokens", token: key, json: ["card_id": secondID, "wallet": "google_pay"])
            expectCode(response, 409, "card_closed")
            conformance.check(response, "POST", "/v1/provision-tokens")

            // 413
            let huge: [String: Any] = ["customer_ref": String(repeating: "a", count: 300 * 1024)]
            response = try await client.post("/v1/mobile-sessions", token: key, json: huge)
            expectCode(response, 413, "payload_too_large")
            conformance.check(response, "POST", "/v1/mobile-sessions")

            // 422
            var expired = badPAN
            expired["cvv"] = nil
            expired["expiry_year"] = 2025
            response = try await client.post("/v1/cards", token: key, json: expired)
            expectCode(response, 422, "card_expired")
            conformance.check(response, "POST", "/v1/cards")
            let unionPay = try await server.makeCard(apiKey: key, extra: ["network": "unionpay"])
            let unionPath = "/v1/cards/\(try #require(unionPay["id"] as? String))/provisioning/google-pay"
            response = try await client.post(unionPath, token: key, json: [String: Any]())
            expectCode(response, 422, "unsupported_network")
            conformance.check(response, "POST", unionPath)
            var wrongScheme = applePay
            wrongScheme["encryption_scheme"] = "RSA_V2"
            response = try await client.post(applePath, token: key, json: wrongScheme)
            expectCode(response, 422, "chain_wrong_key_type")
            conformance.check(response, "POST", applePath)

            // 401 again: an expired mobile session.
            server.clock.advance(by: 120)
            response = try await client.get("/v1/mobile/cards", token: session)
            expectCode(response, 401, "token_expired")
            conformance.check(response, "GET", "/v1/mobile/cards")

            let statuses = conformance.errorStatuses
            #expect(statuses.isSuperset(of: [400, 401, 403, 404, 409, 413, 422]), "\(statuses.sorted())")
        }
    }

    @Test func idempotentReplaysAreDocumented() async throws {
        let spec = self.spec
        try await TestServer.run(.sqlite) { server in
            var conformance = OpenAPIConformance(spec: spec)
            let client = server.client
            let key = try await server.makeTenant().apiKey
            let body: [String: Any] = [
                "customer_ref": "cust_1", "pan": "4111111111111111", "expiry_month": 12, "expiry_year": 2030,
                "cardholder_name": "Jane Appleseed",
            ]
            let first = try await client.post("/v1/cards", token: key, json: body, headers: ["Idempotency-Key": "card-1"])
            conformance.check(first, "POST", "/v1/cards", request: body)
            #expect(first.header("Idempotent-Replayed") == nil)

            let replay = try await client.post("/v1/cards", token: key, json: body, headers: ["Idempotency-Key": "card-1"])
            #expect(replay.status == 201 && replay.header("Idempotent-Replayed") == "true")
            #expect(replay.body == first.body)
            conformance.check(replay, "POST", "/v1/cards", request: body)

            var changed = body
            changed["customer_ref"] = "cust_2"
            let reused = try await client.post("/v1/cards", token: key, json: changed, headers: ["Idempotency-Key": "card-1"])
            #expect(reused.status == 422 && reused.errorCode == "idempotency_key_reused")
            conformance.check(reused, "POST", "/v1/cards")

            // A stored 4xx is replayed too; its body names the replaying request, not the first.
            var bad = body
            bad["pan"] = "4111111111111112"
            let refused = try await client.post("/v1/cards", token: key, json: bad, headers: ["Idempotency-Key": "card-2"])
            conformance.check(refused, "POST", "/v1/cards")
            let replayedRefusal = try await client.post(
                "/v1/cards", token: key, json: bad, headers: ["Idempotency-Key": "card-2"])
            #expect(replayedRefusal.status == 400 && replayedRefusal.header("Idempotent-Replayed") == "true")
            let replayedBody = conformance.check(replayedRefusal, "POST", "/v1/cards")
            let originalID = refused.header("X-Request-Id")
            #expect(replayedBody?["error"]?["request_id"]?.stringValue == replayedRefusal.header("X-Request-Id"))
            #expect(replayedRefusal.header("X-Request-Id") != originalID)
        }
    }

    @Test func expiredCertificateChainIsDocumented() async throws {
        let spec = self.spec
        try await TestServer.run(.sqlite) { server in
            var conformance = OpenAPIConformance(spec: spec)
            let client = server.client
            let key = try await server.makeTenant().apiKey
            let cardID = try #require(try await server.makeCard(apiKey: key, expiryYear: 2035)["id"] as? String)
            // The sandbox chain is valid for about two years; the card until the end of 2035.
            server.clock.advance(by: 3 * 365 * 24 * 3600)
            let path = "/v1/cards/\(cardID)/provisioning/apple-pay"
            let body = try server.applePayBody()
            let response = try await client.post(path, token: key, json: body)
            #expect(response.status == 422 && response.errorCode == "chain_expired", "\(response.text)")
            conformance.check(response, "POST", path, request: body)

            let attemptsPath = "/v1/cards/\(cardID)/provisioning-attempts"
            let attempts = conformance.check(try await client.get(attemptsPath, token: key), "GET", attemptsPath)
            let attempt = attempts?["data"]?.arrayValue?.first
            #expect(attempt?["outcome"] == .string("failed") && attempt?["error_code"] == .string("chain_expired"))
            #expect(attempt?["encryption_scheme"] == .string("ECC_V2") && attempt?["device_type"] == .string("phone"))
        }
    }

    @Test func servesTheDocumentByteForByte() async throws {
        let spec = self.spec
        try await TestServer.run(.sqlite) { server in
            let response = try await server.client.get("/openapi.yaml")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/yaml")
            #expect(response.body == spec.data, "GET /openapi.yaml differs from Sources/ProvisioServer/Resources/openapi.yaml")
            #expect(Data(ProvisioAPIHandler.openAPIDocument.utf8) == spec.data)
        }
    }
}
