import Crypto
import Foundation
import HTTPTypes
import ProvisioAPI
import ProvisioConnectorAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioSandboxAPI
import ProvisioSandboxServer
import Testing

@testable import ProvisioServer

/// The sandbox counterparty as its own HTTP service, against a live Provisio: the cardholder's
/// side through the control API (`SandboxClient`), the issuer's side through the network's
/// connector API, and the wire contract itself (key, error shape, statuses, strict JSON, no PAN).
@Suite struct SandboxHTTPServiceTests {
    /// The sandbox document's generated types (Provisio's are `Components` there too).
    typealias Wire = ProvisioSandboxAPI.Components.Schemas
    /// The connector document's (the Provisio dialect the sandbox's network serves).
    typealias Connector = ProvisioConnectorAPI.Components.Schemas

    // MARK: - Access

    @Test(arguments: TestEngine.available)
    func everyRouteButTheCARootNeedsTheAPIKey(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let ref = "sbx_ntr_whatever"
                let routes: [(HTTPRequest.Method, String, OpenAPIJSON?)] = [
                    (.get, "/sandbox/v1/devices", nil), (.get, "/sandbox/v1/tokens", nil),
                    (.put, "/sandbox/v1/risk", ["device_score": 5, "account_score": 5, "wallet_recommendation": "approve"]),
                    (.post, "/network/v1/tokens/\(ref)/lifecycle", ["action": "suspend"]),
                    (.post, "/network/v1/tokens/\(ref)/activation", ["method": "customer_service"]),
                    (.get, "/sandbox/v1/no-such-route", nil),
                ]
                let wrong: [String?] = [
                    nil, "Bearer wrong", "Bearer \(h.sandboxKey)x", "Bearer \(h.sandboxKey.dropLast())",
                    "Basic \(h.sandboxKey)", "Bearer", h.sandboxKey,
                ]
                for (method, path, json) in routes {
                    for authorization in wrong {
                        let answer = try await h.raw(method, path, json: json, authorization: .some(authorization))
                        #expect(answer.status == 401, "\(method) \(path) with \(authorization ?? "no header")")
                        #expect(answer.sandboxErrorBody?.code == "sandbox_unauthorized")
                        #expect(answer.hasSandboxErrorShape, "\(answer.text)")
                    }
                }
                // The right key, any case of the scheme word.
                #expect(try await h.raw(.get, "/sandbox/v1/devices", authorization: "bearer \(h.sandboxKey)").status == 200)

                // The client with the wrong key gets the server's code.
                let stranger = SandboxClient(baseURL: "http://127.0.0.1:\(h.port)", apiKey: "sbx_key_wrong")
                #expect(await sandboxError { try await stranger.tokens() }?.code == .sandboxUnauthorized)

                // The CA root is public: no key needed, and it is the wallet's CA.
                let root = try await h.raw(.get, "/sandbox/v1/ca/root.pem", authorization: .some(nil))
                #expect(root.status == 200)
                #expect(root.header("Content-Type")?.hasPrefix("text/plain") == true)
                let expected = try SandboxCertificateAuthority.pem(server.ca.root)
                #expect(
                    root.text.trimmingCharacters(in: .whitespacesAndNewlines)
                        == expected.trimmingCharacters(in: .whitespacesAndNewlines))
                #expect(try await stranger.rootCertificatePEM() == root.text)
                #expect(try TrustAnchors.load(pemFile: try Self.write(root.text)).count == 1)

                // Nothing answers on an unreachable sandbox: a transport error, named.
                let nowhere = SandboxClient(baseURL: "http://127.0.0.1:1", apiKey: h.sandboxKey, timeout: .seconds(2))
                #expect(await sandboxError { try await nowhere.devices() }?.code == .sandboxUnreachable)
            }
        }
    }

    // MARK: - Green, yellow, red

    @Test(arguments: TestEngine.available)
    func greenAddOverHTTPPutsAnActivatedPassOnTheDevice(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let devices = try await h.client.devices()
                #expect(devices.map(\.kind) == [.phone, .watch])
                #expect(
                    devices.first?.secureElementPublicKey
                        == h.world.wallet.phone.secureElementPublicKey.x963Representation
                        .base64EncodedString())

                let session = try await h.client.beginAdd(on: .phone, scheme: .eccV2, primaryAccountIdentifier: h.cardID)
                #expect(session.device == .phone && session.scheme == .eccV2 && session.certificates.count == 2)
                #expect(session.certificates == (try server.ca.chainBase64(for: .eccV2)))
                #expect(Data(base64Encoded: session.nonce)?.count == AddPaymentPassSession.nonceLength)
                #expect(abs(session.expiresAt.timeIntervalSince(server.clock.now()) - AddPaymentPassSession.lifetime) < 1)
                let submission = try await h.client.submit(
                    sessionID: session.id, response: try await h.issuerAnswer(for: session))
                #expect(submission.sessionId == session.id)
                let outcome = submission.outcome
                #expect(outcome.decision == .approve && outcome.activationMethods.isEmpty)
                let pass = try #require(outcome.pass)
                #expect(pass.activationState == .activated && pass.device == .phone)
                #expect(pass.primaryAccountIdentifier == h.cardID && pass.primaryAccountNumberSuffix == "1111")
                #expect(pass.passTypeIdentifier == SandboxPass.paymentPassTypeIdentifier)
                #expect(try await h.client.outcome(sessionID: session.id) == outcome)

                // The same pass through every way of reading the library.
                #expect(try await h.client.pass(serialNumber: pass.serialNumber) == pass)
                #expect(try await h.client.passes() == [pass])
                #expect(try await h.client.passes(on: .phone, primaryAccountIdentifier: h.cardID) == [pass])
                #expect(try await h.client.passes(on: .watch).isEmpty)
                #expect(try await h.client.passes(primaryAccountIdentifier: "card_other").isEmpty)

                let token = try await h.client.token(networkTokenRef: outcome.networkTokenRef)
                #expect(token.state == .active && token.decision == .approve && token.device == .phone)
                #expect(token.issuerTokenId == outcome.issuerTokenId && token.passSerialNumber == pass.serialNumber)
                #expect(token.deviceAccountIdentifier == pass.deviceAccountIdentifier)
                let inProcess = try #require(await h.world.network.token(networkTokenRef: outcome.networkTokenRef))
                #expect(token.tokenLast4 == inProcess.tokenPrimaryAccountNumber.last4)
                #expect(try await h.client.tokens() == [token])
                let issued = try await h.issuerToken(outcome.issuerTokenId)
                #expect(issued.state == .active)
                #expect(issued.deviceAccountIdentifier == pass.deviceAccountIdentifier)
                #expect(issued.decisionReasons == outcome.reasons, "the network keeps the issuer's reasons")

                // The session is single-use, and the card is on the phone now.
                let replay = await sandboxError {
                    try await h.client.submit(sessionID: session.id, response: try await h.issuerAnswer(for: session))
                }
                #expect(replay?.code == .sandboxSessionReplayed)
                let again = try await h.raw(
                    .post, "/sandbox/v1/devices/phone/add-sessions",
                    request: Wire.BeginAddRequest(scheme: .eccV2, primaryAccountIdentifier: h.cardID))
                #expect(
                    again.status == 409 && again.sandboxErrorBody?.code == "sandbox_pass_exists" && again.hasSandboxErrorShape)

                // RSA_V2 on the Watch: the scheme comes from the session.
                let watch = try await h.add(on: .watch, scheme: .rsaV2)
                #expect(watch.outcome.pass?.device == .watch && watch.outcome.pass?.activationState == .activated)
                #expect(try await h.client.passes().map(\.device) == [.phone, .watch])
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func yellowAddActivatesWithProvisiosTAVAndRefusesForgeries(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let echo = try await h.client.setRisk(SandboxHTTPHarness.wireRisk(.requireVerification, last4: "1111"))
                #expect(echo.last4 == "1111" && echo.walletRecommendation == .requireVerification)
                let outcome = try await h.add().outcome
                #expect(outcome.decision == .requireVerification)
                #expect(outcome.reasons == ["wallet_recommends_verification"])
                #expect(outcome.activationMethods.contains("app_to_app"))
                #expect(outcome.pass?.activationState == .requiresActivation)
                let ref = outcome.networkTokenRef
                #expect(try await h.client.token(networkTokenRef: ref).state == .pendingActivation)

                // Signed by another key, and not a TAV at all: refused with their codes, nothing changes.
                let forged = try TAVSigner(privateKey: P256.Signing.PrivateKey()).sign(
                    pan: try PrimaryAccountNumber(SandboxHTTPHarness.pan), expiry: try CardExpiry(month: 12, year: 2030),
                    validUntil: server.clock.now().addingTimeInterval(600))
                let refused = await sandboxError {
                    try await h.client.verifyActivationData(networkTokenRef: ref, activationData: forged)
                }
                #expect(refused?.code == .tavKeyMismatch)
                let garbage = try await h.raw(
                    .post, "/sandbox/v1/tokens/\(ref)/tav", request: Wire.TAVRequest(activationData: "not a tav"))
                #expect(
                    garbage.status == 422 && garbage.sandboxErrorBody?.code == "tav_malformed" && garbage.hasSandboxErrorShape)
                #expect(try await h.client.token(networkTokenRef: ref).state == .pendingActivation)

                // Provisio's own TAV activates token and pass, and Provisio hears of it.
                let tav = try await h.activationData(issuerTokenID: outcome.issuerTokenId)
                let activated = try await h.client.verifyActivationData(networkTokenRef: ref, activationData: tav)
                #expect(activated.state == .active)
                #expect(
                    try await h.client.pass(serialNumber: try #require(outcome.pass?.serialNumber)).activationState == .activated)
                #expect(try await h.issuerToken(outcome.issuerTokenId).state == .active)
                let twice = try await h.raw(
                    .post, "/sandbox/v1/tokens/\(ref)/tav", request: Wire.TAVRequest(activationData: tav))
                #expect(twice.status == 409 && twice.sandboxErrorBody?.code == "sandbox_network_token_state_invalid")

                // The override was for this card only: another last4 keeps the green default.
                let other = try await h.raw(
                    .put, "/sandbox/v1/risk",
                    request: Wire.Risk(deviceScore: 4, accountScore: 3, walletRecommendation: .approve))
                #expect(other.status == 200)
                // The default setting has no `last4`: it is left out, never null.
                let setting = try other.decode(Wire.Risk.self)
                #expect(setting.last4 == nil && !other.text.contains("\"last4\"") && setting.deviceScore == 4)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func oneTimeCodesOverHTTPLockAfterWrongCodesAndActivateWithTheRightOne(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server, defaultRisk: SandboxHTTPHarness.risk(.requireVerification)) { h in
                let phone = try await h.add(on: .phone).outcome.networkTokenRef
                // No body at all, or `{}`: both ask for a code; anything else is refused.
                let noBody = try await h.raw(.post, "/sandbox/v1/tokens/\(phone)/otp")
                #expect(noBody.status == 200, "\(noBody.text)")
                // Decoding holds `channels` and `expires_at` (a strict timestamp) to the document.
                let asked = try noBody.decode(Wire.OTPChallenge.self)
                let code = asked.code
                #expect(code.count == 6 && asked.expiresAt > server.clock.now())
                let extra = try await h.raw(.post, "/sandbox/v1/tokens/\(phone)/otp", json: ["colour": "sms"])
                #expect(extra.status == 400 && extra.sandboxErrorBody?.code == "sandbox_invalid_request")
                #expect(extra.sandboxErrorBody?.message.contains("does not accept") == true)
                #expect(extra.sandboxErrorBody?.message.contains("colour") == false, "the unknown field is echoed")
                let wrong = code == "000000" ? "111111" : "000000"
                for _ in 0..<SandboxOTP.attemptLimit {
                    let refused = try await h.raw(
                        .post, "/sandbox/v1/tokens/\(phone)/otp/verification", request: Wire.OTPVerificationRequest(code: wrong))
                    #expect(refused.status == 422 && refused.sandboxErrorBody?.code == "sandbox_otp_invalid")
                }
                let locked = await sandboxError { try await h.client.verifyOTP(networkTokenRef: phone, code: code) }
                #expect(locked?.code == .sandboxOTPLocked)
                let lockedRaw = try await h.raw(.post, "/sandbox/v1/tokens/\(phone)/otp", request: Wire.OTPRequest())
                #expect(lockedRaw.status == 409 && lockedRaw.sandboxErrorBody?.code == "sandbox_otp_locked")

                let watch = try await h.add(on: .watch)
                let challenge = try await h.client.requestOTP(networkTokenRef: watch.outcome.networkTokenRef)
                #expect(challenge.channels.isEmpty, "codes are not relayed through the issuer in this world")
                #expect(challenge.expiresAt > server.clock.now())
                let verified = try await h.client.verifyOTP(networkTokenRef: watch.outcome.networkTokenRef, code: challenge.code)
                #expect(verified.state == .active)
                #expect(try await h.client.passes(on: .watch).first?.activationState == .activated)
                #expect(try await h.issuerToken(watch.outcome.issuerTokenId).networkState == "otp_verified")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func redAddIsRefusedWith422AndTheOutcomeStaysReadable(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                try await h.client.setRisk(SandboxHTTPHarness.wireRisk(.decline))
                let session = try await h.client.beginAdd(on: .phone, primaryAccountIdentifier: h.cardID)
                let refused = try await h.raw(
                    .post, "/sandbox/v1/add-sessions/\(session.id)/submission",
                    request: try await h.issuerAnswer(for: session))
                #expect(
                    refused.status == 422 && refused.sandboxErrorBody?.code == "sandbox_network_declined"
                        && refused.hasSandboxErrorShape)
                #expect(refused.sandboxErrorBody?.message.contains("wallet_recommends_decline") == true)

                let raw = try await h.raw(.get, "/sandbox/v1/outcomes/\(session.id)")
                #expect(raw.status == 200 && !raw.text.contains("\"pass\""), "no pass: left out, never null")
                let rawOutcome = try raw.decode(Wire.Outcome.self)
                #expect(rawOutcome.pass == nil && rawOutcome.decision == .decline)
                let outcome = try await h.client.outcome(sessionID: session.id)
                #expect(outcome.decision == .decline && outcome.pass == nil && outcome.reasons == ["wallet_recommends_decline"])
                #expect(try await h.client.token(networkTokenRef: outcome.networkTokenRef).state == .declined)
                #expect(try await h.client.passes().isEmpty)
                #expect(try await h.issuerToken(outcome.issuerTokenId).state == .declined)

                // Through the client the refusal keeps its code.
                let second = try await h.client.beginAdd(on: .watch, primaryAccountIdentifier: h.cardID)
                let declined = await sandboxError {
                    try await h.client.submit(sessionID: second.id, response: try await h.issuerAnswer(for: second))
                }
                #expect(declined?.code == .sandboxNetworkDeclined)
                #expect(try await h.client.outcome(sessionID: second.id).decision == .decline)
            }
        }
    }

    // MARK: - Lifecycle

    @Test(arguments: TestEngine.available)
    func connectorLifecycleSuspendsResumesAndDeletesThePass(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let outcome = try await h.add().outcome
                let ref = outcome.networkTokenRef
                let serial = try #require(outcome.pass?.serialNumber)
                let path = "/network/v1/tokens/\(ref)/lifecycle"

                let suspended = try await h.connector.applyLifecycleAction(
                    path: .init(ref: ref), body: .json(.init(action: .suspend, reasonCode: "fraud_suspected"))
                ).ok.body.json
                #expect(suspended.state == .suspended)
                #expect(try await h.client.pass(serialNumber: serial).activationState == .suspended)

                let resumed = try await h.connector.applyLifecycleAction(
                    path: .init(ref: ref), body: .json(.init(action: .resume))
                ).ok.body.json
                #expect(resumed.state == .active)
                #expect(try await h.client.pass(serialNumber: serial).activationState == .activated)

                // An active token cannot be resumed; nothing changes.
                let invalid = try await h.raw(.post, path, request: Connector.LifecycleRequest(action: .resume))
                #expect(invalid.status == 409 && invalid.sandboxErrorBody?.code == "sandbox_network_token_state_invalid")
                #expect(invalid.hasSandboxErrorShape)
                #expect(try await h.client.token(networkTokenRef: ref).state == .active)

                let unknownAction = try await h.raw(.post, path, json: ["action": "pause"])
                #expect(unknownAction.status == 400 && unknownAction.sandboxErrorBody?.code == "sandbox_invalid_request")
                #expect(unknownAction.sandboxErrorBody?.message.contains("suspend, resume, delete") == true)

                let deleted = try await h.connector.applyLifecycleAction(
                    path: .init(ref: ref), body: .json(.init(action: .delete, reasonCode: "card_closed"))
                ).ok.body.json
                #expect(deleted.state == .deleted && deleted.passSerialNumber == nil)
                // Left out, never null.
                let deletedBytes = try #require(h.answers.all.last { $0.operationID == "applyLifecycleAction" })
                #expect(!deletedBytes.text.contains("pass_serial_number"))
                let gone = await sandboxError { try await h.client.pass(serialNumber: serial) }
                #expect(gone?.code == .sandboxPassUnknown)
                #expect(try await h.client.passes().isEmpty)
                let afterDelete = try await h.raw(.post, path, request: Connector.LifecycleRequest(action: .suspend))
                #expect(afterDelete.status == 409 && afterDelete.sandboxErrorBody?.code == "sandbox_network_token_state_invalid")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func customerServiceActivationThroughTheConnectorActivatesAPendingToken(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server, defaultRisk: SandboxHTTPHarness.risk(.requireVerification)) { h in
                let outcome = try await h.add().outcome
                let path = "/network/v1/tokens/\(outcome.networkTokenRef)/activation"

                let otherMethod = try await h.raw(.post, path, json: ["method": "app_to_app"])
                #expect(otherMethod.status == 400 && otherMethod.sandboxErrorBody?.code == "sandbox_invalid_request")
                #expect(otherMethod.sandboxErrorBody?.message.contains("customer_service") == true)
                let noMethod = try await h.raw(.post, path, json: ["reason_code": "agent_verified"])
                #expect(noMethod.status == 400 && noMethod.sandboxErrorBody?.message.contains("'method' is required") == true)
                #expect(try await h.client.token(networkTokenRef: outcome.networkTokenRef).state == .pendingActivation)

                let activated = try await h.connector.activateToken(
                    path: .init(ref: outcome.networkTokenRef),
                    body: .json(.init(method: .customerService, reasonCode: "agent_verified"))
                ).ok.body.json
                #expect(activated.state == .active && activated.networkTokenRef == outcome.networkTokenRef)
                #expect(try await h.client.passes().first?.activationState == .activated)

                let again = try await h.raw(.post, path, request: Connector.ActivationRequest(method: .customerService))
                #expect(again.status == 409 && again.sandboxErrorBody?.code == "sandbox_network_token_state_invalid")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func cardholderEventsChangeThePassAndReachProvisio(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let phone = try await h.add(on: .phone).outcome
                let watch = try await h.add(on: .watch).outcome

                let lost = try await h.client.report(event: .deviceLost, networkTokenRef: watch.networkTokenRef)
                #expect(lost.state == .suspended)
                #expect(try await h.client.passes(on: .watch).first?.activationState == .suspended)
                let suspended = try await h.issuerToken(watch.issuerTokenId)
                #expect(suspended.state == .suspended && suspended.networkState == "device_lost")

                let removed = try await h.client.report(event: .removedFromWallet, networkTokenRef: phone.networkTokenRef)
                #expect(removed.state == .deleted && removed.passSerialNumber == nil)
                #expect(try await h.client.passes(on: .phone).isEmpty)
                #expect(try await h.issuerToken(phone.issuerTokenId).state == .deleted)

                let expired = try await h.client.report(event: .tokenExpired, networkTokenRef: watch.networkTokenRef)
                #expect(expired.state == .deleted)
                #expect(try await h.client.passes(on: .watch).first?.activationState == .deactivated)

                let notAnEvent = try await h.raw(
                    .post, "/sandbox/v1/tokens/\(watch.networkTokenRef)/events", json: ["event": "activated"])
                #expect(notAnEvent.status == 400 && notAnEvent.sandboxErrorBody?.message.contains("removed_from_wallet") == true)
            }
        }
    }

    // MARK: - The wire contract

    @Test(arguments: TestEngine.available)
    func unknownThingsAre404AndMalformedRequestsAre400(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let nope = "sbx_ntr_0000"
                let notFound: [(HTTPRequest.Method, String, OpenAPIJSON?, String)] = [
                    (.get, "/sandbox/v1/tokens/\(nope)", nil, "sandbox_network_token_unknown"),
                    (.post, "/sandbox/v1/tokens/\(nope)/tav", ["activation_data": "AAAA"], "sandbox_network_token_unknown"),
                    (.post, "/sandbox/v1/tokens/\(nope)/otp", nil, "sandbox_network_token_unknown"),
                    (.post, "/sandbox/v1/tokens/\(nope)/events", ["event": "device_lost"], "sandbox_network_token_unknown"),
                    (.post, "/network/v1/tokens/\(nope)/lifecycle", ["action": "suspend"], "sandbox_network_token_unknown"),
                    (
                        .post, "/network/v1/tokens/\(nope)/activation", ["method": "customer_service"],
                        "sandbox_network_token_unknown"
                    ),
                    (
                        .post, "/sandbox/v1/add-sessions/sbx_session_nope/submission",
                        ["encrypted_pass_data": "AA==", "activation_data": "", "ephemeral_public_key": "AA=="],
                        "sandbox_session_unknown"
                    ),
                    (.get, "/sandbox/v1/outcomes/sbx_session_nope", nil, "sandbox_outcome_unknown"),
                    (.get, "/sandbox/v1/passes/nope", nil, "sandbox_pass_unknown"),
                    (.get, "/sandbox/v1/nowhere", nil, "sandbox_route_not_found"),
                    (.delete, "/sandbox/v1/tokens", nil, "sandbox_route_not_found"),
                    (.get, "/v1/cards", nil, "sandbox_route_not_found"),
                ]
                for (method, path, json, code) in notFound {
                    let answer = try await h.raw(method, path, json: json)
                    #expect(
                        answer.status == 404 && answer.sandboxErrorBody?.code == code,
                        "\(method) \(path): \(answer.status) \(answer.text)")
                    #expect(answer.hasSandboxErrorShape, "\(answer.text)")
                }

                let addPath = "/sandbox/v1/devices/phone/add-sessions"
                let badRequests: [(String, HTTPRequest.Method, Data, String)] = [
                    (addPath, .post, Data("{".utf8), "JSON"),
                    (addPath, .post, Data("[]".utf8), "JSON object"),
                    (addPath, .post, Data(), "JSON"),
                    (addPath, .post, Data(#"{"primary_account_identifier": "c"}"#.utf8), "'scheme' is required"),
                    (addPath, .post, Data(#"{"scheme": "ECC_V3"}"#.utf8), "ECC_V2, RSA_V2"),
                    (addPath, .post, Data(#"{"scheme": "ECC_V2", "sheme": 1}"#.utf8), "does not accept"),
                    (addPath, .post, Data(#"{"scheme": 2}"#.utf8), "'scheme' has the wrong type"),
                    (addPath, .post, Data(#"{"scheme": null}"#.utf8), "'scheme' must not be null"),
                    (
                        "/sandbox/v1/devices/tablet/add-sessions", .post, Data(#"{"scheme": "ECC_V2"}"#.utf8),
                        "one of phone, watch"
                    ),
                    ("/sandbox/v1/passes?device=tablet", .get, Data(), "one of phone, watch"),
                    ("/sandbox/v1/passes?serial=1", .get, Data(), "does not take"),
                    (
                        "/sandbox/v1/risk", .put,
                        Data(#"{"last4": "11", "device_score": 5, "account_score": 5, "wallet_recommendation": "approve"}"#.utf8),
                        "'last4'"
                    ),
                    (
                        "/sandbox/v1/risk", .put,
                        Data(#"{"device_score": 5, "account_score": 5, "wallet_recommendation": "maybe"}"#.utf8),
                        "approve, require_verification, decline"
                    ),
                ]
                for (path, method, body, fragment) in badRequests {
                    let answer = try await h.raw(method, path, body: method == .get ? nil : body)
                    #expect(
                        answer.status == 400 && answer.sandboxErrorBody?.code == "sandbox_invalid_request",
                        "\(path): \(answer.text)")
                    #expect(answer.sandboxErrorBody?.message.contains(fragment) == true, "\(path): \(answer.text)")
                    #expect(answer.hasSandboxErrorShape)
                }

                // Scores out of range: refused with the code the risk model uses, and its status (400,
                // as Provisio answers it).
                let scores = try await h.raw(
                    .put, "/sandbox/v1/risk", json: ["device_score": 0, "account_score": 5, "wallet_recommendation": "approve"])
                #expect(
                    scores.status == 400 && scores.sandboxErrorBody?.code == "invalid_risk_assessment"
                        && scores.hasSandboxErrorShape)
                let viaClient = await sandboxError {
                    try await h.client.setRisk(Wire.Risk(deviceScore: 3, accountScore: 9, walletRecommendation: .approve))
                }
                #expect(viaClient?.code == .invalidRiskAssessment)

                // Over 256 KiB: refused before parsing.
                let huge = Data(
                    ("{\"scheme\": \"" + String(repeating: "A", count: SandboxHTTPService.maximumBodyBytes) + "\"}").utf8)
                let tooLarge = try await h.raw(.post, addPath, body: huge)
                #expect(tooLarge.status == 413 && tooLarge.sandboxErrorBody?.code == "sandbox_payload_too_large")

                // A well-formed add on the paired Watch is 201 and names device and scheme.
                let watch = try await h.raw(
                    .post, "/sandbox/v1/devices/watch/add-sessions", request: Wire.BeginAddRequest(scheme: .rsaV2))
                #expect(watch.status == 201)
                let watchSession = try watch.decode(Wire.AddSession.self)
                #expect(watchSession.device == .watch && watchSession.scheme == .rsaV2)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func noAnswerCarriesTheCardPANOrATokenPAN(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                // Green on the Watch, yellow on the phone (then activated in the app, which a Watch
                // is not offered), red on a second card.
                let greenAdd = try await h.add(on: .watch)
                let green = greenAdd.outcome
                try await h.client.setRisk(SandboxHTTPHarness.wireRisk(.requireVerification))
                let yellowAdd = try await h.add(on: .phone)
                let yellow = yellowAdd.outcome
                let tav = try await h.activationData(issuerTokenID: yellow.issuerTokenId)
                _ = try await h.api.verifyActivationData(
                    path: .init(ref: yellow.networkTokenRef), body: .json(.init(activationData: tav))
                ).ok
                _ = try await h.connector.applyLifecycleAction(
                    path: .init(ref: green.networkTokenRef), body: .json(.init(action: .suspend))
                ).ok

                let session = try await h.client.beginAdd(on: .phone, primaryAccountIdentifier: "card_second")
                try await h.client.setRisk(SandboxHTTPHarness.wireRisk(.decline))
                let refused = try await h.raw(
                    .post, "/sandbox/v1/add-sessions/\(session.id)/submission",
                    request: try await h.issuerAnswer(for: session))
                #expect(refused.status == 422)

                // Every read endpoint, after all that.
                var paths = [
                    "/sandbox/v1/tokens", "/sandbox/v1/passes", "/sandbox/v1/devices", "/sandbox/v1/outcomes/\(session.id)",
                ]
                for token in try await h.client.tokens() {
                    paths.append("/sandbox/v1/tokens/\(token.networkTokenRef)")
                    if let serial = token.passSerialNumber { paths.append("/sandbox/v1/passes/\(serial)") }
                }
                for submission in [greenAdd, yellowAdd] { paths.append("/sandbox/v1/outcomes/\(submission.sessionId)") }
                for path in paths { _ = try await h.raw(.get, path) }

                let tokenPANs = await h.tokenPANs()
                #expect(tokenPANs.count == 3)
                let bodies = h.answers.all.map(\.text)
                #expect(bodies.count >= paths.count + 3)
                for body in bodies {
                    #expect(!body.contains(SandboxHTTPHarness.pan), "\(body)")
                    for tokenPAN in tokenPANs {
                        #expect(!body.contains(tokenPAN), "a token PAN in \(body)")
                    }
                }
                // The last four digits are there: the search would have found more.
                #expect(bodies.contains { $0.contains("\"primary_account_number_suffix\":\"1111\"") })
            }
        }
    }

    // MARK: - The CA directory `sandbox serve` keeps

    @Test func aWrittenCADirectoryReadsBackAndAMismatchedKeyIsRefused() throws {
        let directory = NSTemporaryDirectory() + "provisio-sbx-ca-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(!SandboxCADirectory.containsCA(at: directory))
        try SandboxCADirectory.write(TestServer.sandboxCA, to: directory)
        #expect(SandboxCADirectory.containsCA(at: directory))

        let read = try SandboxCADirectory.read(from: directory)
        #expect(read.root == TestServer.sandboxCA.root && read.intermediate == TestServer.sandboxCA.intermediate)
        #expect(try read.chainBase64(for: .eccV2) == TestServer.sandboxCA.chainBase64(for: .eccV2))
        #expect(try read.chainBase64(for: .rsaV2) == TestServer.sandboxCA.chainBase64(for: .rsaV2))
        // The keys still open what is sealed to the leaves.
        _ = try read.eccOpener()
        _ = try read.rsaOpener()

        // Another leaf key: the CA would accept chains whose payloads it cannot open.
        let keyFile = (directory as NSString).appendingPathComponent("leaf-key.pem")
        try P256.KeyAgreement.PrivateKey().pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let mismatched = #expect(throws: ProvisioError.self) { try SandboxCADirectory.read(from: directory) }
        #expect(mismatched?.code == .sandboxCAInvalid)
        #expect(mismatched?.message.contains("leaf-key.pem") == true)

        // Half an RSA pair is refused rather than silently dropped.
        try TestServer.sandboxCA.eccLeafKeyPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent("rsa-leaf-key.pem"))
        let half = #expect(throws: ProvisioError.self) { try SandboxCADirectory.read(from: directory) }
        #expect(half?.code == .sandboxCAInvalid)
    }

    private static func write(_ text: String) throws -> String {
        let file = NSTemporaryDirectory() + "provisio-sbx-root-\(UUID().uuidString.prefix(8)).pem"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
