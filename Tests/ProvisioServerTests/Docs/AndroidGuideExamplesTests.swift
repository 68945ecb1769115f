import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioOpenPGP
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// docs/android-integration.md's request and answer examples are what a real Provisio on
/// loopback answers, with the sandbox network and the sandbox's Android wallets behind it: this
/// test makes each call, cuts ids, secrets and opaque payment cards to a stable prefix, and fails
/// when the guide's copy differs, printing the new block to paste. With
/// `PROVISIO_WRITE_GUIDE_EXAMPLES=1` it writes them into the guide instead.
@Suite struct AndroidGuideExamplesTests {
    static var guidePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/android-integration.md").path
    }

    /// A fixed moment, so the answers' times are the same on every run.
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static let address = """
        {"name": "Jane Appleseed", "address1": "1 Main Street", "locality": "Springfield",
        "administrative_area": "IL", "postal_code": "62701", "country_code": "US", "phone_number": "+12175550100"}
        """

    // A bound for a hang, not a speed: it counts the wait for a ServerTestSlots slot too.
    @Test(.timeLimit(.minutes(10)))
    func theGuideShowsWhatTheSandboxAnswers() async throws {
        var examples = try await Self.googleUPP()
        examples += try await Self.googleLegacyGreen()
        examples += try await Self.googleYellow()
        examples += try await Self.samsung()

        var guide = GuideDocument(text: try String(contentsOfFile: Self.guidePath, encoding: .utf8))
        if ProcessInfo.processInfo.environment["PROVISIO_WRITE_GUIDE_EXAMPLES"] == "1" {
            for example in examples { guide.replace(example) }
            try guide.text.write(toFile: Self.guidePath, atomically: true, encoding: .utf8)
        }
        let written = guide.examples
        #expect(Set(examples.map(\.name)).count == examples.count, "one example per name")
        for example in examples where written[example.name] != example.text {
            Issue.record(
                """
                docs/android-integration.md's example "\(example.name)" is not what the sandbox answers now. \
                Paste this (or run with PROVISIO_WRITE_GUIDE_EXAMPLES=1):
                \(GuideDocument.block(example))
                """)
        }
        let made = Set(examples.map(\.name))
        for name in written.keys where !made.contains(name) {
            Issue.record("docs/android-integration.md has an example \"\(name)\" that no run makes")
        }
        for example in examples { #expect(!example.text.contains(SandboxNetworkHarness.pan), "\(example.name)") }
    }

    /// The issuer gives Provisio Google's key and registers its own with Google; the app's
    /// generator forwards Google's request and answers both opaque payment cards.
    static func googleUPP() async throws -> [GuideExample] {
        let created = now.addingTimeInterval(-24 * 3600)
        let googleKey = try await offThePool { try SandboxGoogleKey.generate(at: created) }
        return try await TestServer.run(.sqlite, clock: TestClock(now)) { server in
            try await SandboxNetworkHarness.run(server) { h in
                var examples: [GuideExample] = []
                let google = SandboxGoogleWallet(tokenService: h.network, googleKey: googleKey, clock: server.clock)
                let armored = try #require(google.googleKey?.publicKey.armored)
                let settings = try APIJSON.encode(["google_encryption_keys": [armored]])
                let set = try await server.raw.send(.put, "/v1/settings/google-pay", token: h.apiKey, body: settings)
                #expect(set.status == 200, "\(set.text)")
                examples.append(
                    try .exchange(
                        "google-pay-settings", "PUT", "/v1/settings/google-pay", bearer: GuideJSON.secret(h.apiKey),
                        body: String(decoding: settings, as: UTF8.self), answer: set))
                let issuerKey = try set.decode(Components.Schemas.GooglePaySettings.self).issuerSigningKey.armored
                try await google.registerIssuerKey(OpenPGPPublicKey(Data(issuerKey.utf8)))

                let (provisionToken, _) = try await h.provisionToken(wallet: "google_pay")
                let session = try await google.beginPushTokenize(
                    network: .visa, tokenServiceProvider: .visa, displayName: "Visa •••• 1111", lastDigits: "1111",
                    address: GoogleUserAddress(name: "Jane Appleseed", countryCode: "US"))
                let asked = session.credentialsRequest
                let request = """
                    {"user_address": \(address), "credentials_request": {"server_session_id": "\(asked.serverSessionID)",
                    "stable_hardware_id": "\(asked.stableHardwareID)", "wallet_id": "\(asked.walletID)",
                    "token_requestor_id": "\(asked.tokenRequestorID)",
                    "google_opaque_payment_card_requested": \(asked.googleOpaquePaymentCardRequested)}}
                    """
                let path = "/v1/mobile/cards/\(h.cardID)/provisioning/google-pay"
                let answer = try await server.raw.send(.post, path, token: provisionToken, body: Data(request.utf8))
                #expect(answer.status == 200, "\(answer.text)")
                examples.append(
                    try .exchange(
                        "google-upp-push", "POST", path, bearer: GuideJSON.secret(provisionToken), body: request, answer: answer))

                let push = try answer.decode(Components.Schemas.WalletPushData.self)
                let result = try await google.completePushTokenize(
                    session: session.id,
                    credentials: GeneratedPaymentCredentials(
                        opaquePaymentCard: push.opaquePaymentCard, googleOpaquePaymentCard: push.googleOpaquePaymentCard))
                #expect(result.tokenState == .active && result.cardResult)
                examples.append(
                    .wallet(
                        "google-upp-result",
                        [
                            "resultCode RESULT_OK (\(result.resultCode))",
                            "EXTRA_PUSH_TOKENIZE_RESULT: device token \(result.issuerTokenID) "
                                + "\(result.tokenState.constantName), card saved to the Google Account: \(result.cardResult)",
                            "cardsOnFile → \(await google.cardsOnFile().map { "•••• \($0.fpanLastFour)" })",
                        ]))
                return examples
            }
        }
    }

    /// The app asks its backend for a provision token, lists its card, gets Google Pay's push
    /// data, hands it to `pushTokenize`; the backend reads the token.
    static func googleLegacyGreen() async throws -> [GuideExample] {
        try await TestServer.run(.sqlite, clock: TestClock(now)) { server in
            try await SandboxNetworkHarness.run(server) { h in
                var examples: [GuideExample] = []
                let (provisionToken, tokenExample) = try await h.provisionToken(wallet: "google_pay")
                examples.append(tokenExample)
                let bearer = GuideJSON.secret(provisionToken)
                let cards = try await server.raw.get("/v1/mobile/cards", token: provisionToken)
                examples.append(try .exchange("mobile-cards", "GET", "/v1/mobile/cards", bearer: bearer, answer: cards))

                let path = "/v1/mobile/cards/\(h.cardID)/provisioning/google-pay"
                let request = #"{"user_address": \#(address)}"#
                let answer = try await server.raw.send(.post, path, token: provisionToken, body: Data(request.utf8))
                #expect(answer.status == 200, "\(answer.text)")
                examples.append(try .exchange("google-legacy-push", "POST", path, bearer: bearer, body: request, answer: answer))

                let google = SandboxGoogleWallet(tokenService: h.network)
                let result = try await h.pushTokenize(try answer.decode(Components.Schemas.WalletPushData.self), into: google)
                #expect(result.resultCode == GooglePushTokenizeResult.resultOK && result.tokenState == .active)
                examples.append(.wallet("google-legacy-result", try await Self.lines(result, google)))

                let again = try await server.raw.send(.post, path, token: provisionToken, body: Data(request.utf8))
                #expect(again.refused(409, .tokenAlreadyUsed), "\(again.text)")
                examples.append(
                    try .exchange("provision-token-spent", "POST", path, bearer: bearer, body: request, answer: again))

                let tokenPath = "/v1/tokens/\(result.issuerTokenID)"
                let token = try await server.raw.get(tokenPath, token: h.apiKey)
                #expect(token.status == 200 && token.text.contains(#""wallet":"google_pay""#), "\(token.text)")
                examples.append(
                    try .exchange("token-active", "GET", tokenPath, bearer: GuideJSON.secret(h.apiKey), answer: token))
                return examples
            }
        }
    }

    /// The issuer's rules ask for verification: Google Wallet holds each token in
    /// `TOKEN_STATE_NEEDS_IDENTITY_VERIFICATION` until a one-time code, the issuer's app or its
    /// customer service activates it (one token each).
    static func googleYellow() async throws -> [GuideExample] {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        return try await TestServer.run(.sqlite, clock: TestClock(now)) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                var examples: [GuideExample] = []
                let apiKey = GuideJSON.secret(h.apiKey)
                let google = SandboxGoogleWallet(tokenService: h.network)
                func push() async throws -> GooglePushTokenizeResult {
                    try await h.pushTokenize(try await h.googlePushData(), into: google)
                }

                // A one-time code, sent by the issuer from Provisio's webhook.
                _ = try await server.api(h.apiKey).createWebhookEndpoint(
                    body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
                ).created
                let channels = #"{"channels": [{"type": "sms", "masked": "+1 ••• ••• 4821"}]}"#
                receiver.setAnswer(channels)
                await h.network.relayOTPsThroughIssuer()
                let byCode = try await push()
                examples.append(.wallet("google-yellow-result", try await Self.lines(byCode, google)))
                let tokenPath = "/v1/tokens/\(byCode.issuerTokenID)"
                let pending = try await server.raw.get(tokenPath, token: h.apiKey)
                examples.append(try .exchange("token-pending", "GET", tokenPath, bearer: apiKey, answer: pending))
                let verification = try await google.tokenize(tokenServiceProvider: .visa, issuerTokenID: byCode.issuerTokenID)
                let otp = try await google.requestOTP(tokenServiceProvider: .visa, issuerTokenID: byCode.issuerTokenID)
                let delivery = try #require(receiver.deliveries.last)
                examples.append(try .json("otp-webhook", delivery.body, cuts: ["code": 0]))
                let state = try await google.submitOTP(
                    tokenServiceProvider: .visa, issuerTokenID: byCode.issuerTokenID, code: otp.code)
                #expect(state == .active)
                examples.append(
                    .wallet(
                        "google-otp-result",
                        [
                            "tokenize(TOKEN_PROVIDER_VISA, \(byCode.issuerTokenID)) → methods "
                                + verification.methods.map(\.rawValue).joined(separator: ", "),
                            "the cardholder picks otp, gets the code by SMS and types it → \(state.constantName)",
                        ]))

                // The issuer's app, started by Google Wallet with Visa's intent.
                let byApp = try await push()
                let intent = try await google.startAppToApp(tokenServiceProvider: .visa, issuerTokenID: byApp.issuerTokenID)
                let extra = try #require(BinaryText.decodeBase64(Self.base64(fromURL: intent.extraText)))
                examples.append(
                    .wallet(
                        "google-a2a-intent",
                        [
                            "action \(intent.action.replacingOccurrences(of: intent.packageName, with: "{package}"))",
                            "getCallingPackage() = \(intent.callingPackage)",
                        ]))
                examples.append(try .json("google-a2a-extra-text", extra, cuts: ["deviceID": 0, "walletAccountID": 0]))
                let activationPath = "/v1/tokens/\(byApp.issuerTokenID)/activation"
                let tavRequest = #"{"mode": "tav"}"#
                let tav = try await server.raw.send(.post, activationPath, token: h.apiKey, body: Data(tavRequest.utf8))
                #expect(tav.status == 200, "\(tav.text)")
                examples.append(
                    try .exchange("activation-tav", "POST", activationPath, bearer: apiKey, body: tavRequest, answer: tav))
                let data = try #require(try tav.decode(Components.Schemas.TokenActivationResult.self).activationData)
                let approved = try await google.completeAppToApp(
                    tokenServiceProvider: .visa, issuerTokenID: byApp.issuerTokenID, response: .approved(activationData: data))
                #expect(approved.tokenState == .active)
                examples.append(
                    .wallet(
                        "google-a2a-result",
                        ["STEP_UP_RESPONSE approved, with the activation data → \(approved.tokenState.constantName)"]))

                // Customer service.
                let byAgent = try await push()
                let agentPath = "/v1/tokens/\(byAgent.issuerTokenID)/activation"
                let activation = #"{"mode": "customer_service", "reason_code": "caller_verified"}"#
                let activated = try await server.raw.send(.post, agentPath, token: h.apiKey, body: Data(activation.utf8))
                #expect(activated.status == 200, "\(activated.text)")
                examples.append(
                    try .exchange(
                        "customer-service-activation", "POST", agentPath, bearer: apiKey, body: activation, answer: activated))
                #expect(try await h.state(in: google, byAgent) == .active)
                return examples
            }
        }
    }

    /// The Samsung Pay SDK's sequence: status, card list, wallet info, Provisio's data, `addCard`.
    static func samsung() async throws -> [GuideExample] {
        try await TestServer.run(.sqlite, clock: TestClock(now)) { server in
            try await SandboxNetworkHarness.run(server) { h in
                var examples: [GuideExample] = []
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let partner = SandboxNetworkHarness.samsungPartner
                let status = await samsung.getSamsungPayStatus(partner)
                let before = try await samsung.getAllCards(partner)
                let info = try await samsung.getWalletInfo(partner)
                let (provisionToken, _) = try await h.provisionToken(wallet: "samsung_pay")
                let request = #"{"device_id": "\#(info.deviceID)", "wallet_user_id": "\#(info.walletUserID)"}"#
                let path = "/v1/mobile/cards/\(h.cardID)/provisioning/samsung-pay"
                let answer = try await server.raw.send(.post, path, token: provisionToken, body: Data(request.utf8))
                #expect(answer.status == 200, "\(answer.text)")
                examples.append(
                    try .exchange(
                        "samsung-push", "POST", path, bearer: GuideJSON.secret(provisionToken), body: request, answer: answer))

                let data = try answer.decode(Components.Schemas.SamsungPayPushData.self)
                let addCardInfo = try SamsungAddCardInfo(
                    cardType: try #require(SamsungCardType(rawValue: data.cardType.rawValue)),
                    tokenizationProvider: try #require(SamsungTokenizationProvider(rawValue: data.tokenizationProvider.rawValue)),
                    cardDetail: [SamsungAddCardInfo.provisionPayloadKey: data.provisionPayload])
                let card = try await samsung.addCard(addCardInfo, partner)
                #expect(card.cardStatus == .active)
                examples.append(
                    .wallet(
                        "samsung-result",
                        [
                            "getSamsungPayStatus → \(status.status.constantName)",
                            "getAllCards → \(before.count) cards",
                            "addCard → onSuccess: card \(card.cardStatus.rawValue), last4Fpan \(card.last4FPAN), "
                                + "deviceType \(card.deviceType.rawValue)",
                        ]))
                return examples
            }
        }
    }

    /// What a TapAndPay push answered the app, as the guide shows it.
    static func lines(_ result: GooglePushTokenizeResult, _ google: SandboxGoogleWallet) async throws -> [String] {
        let state = try await google.getTokenStatus(tokenServiceProvider: .visa, issuerTokenID: result.issuerTokenID)
        return [
            "pushTokenize → resultCode RESULT_OK (\(result.resultCode))",
            "EXTRA_ISSUER_TOKEN_ID = \(result.issuerTokenID)",
            "getTokenStatus(TOKEN_PROVIDER_VISA, \(result.issuerTokenID)) → \(state.constantName)",
        ]
    }

    /// Base64url (no padding) as standard base64.
    static func base64(fromURL text: String) -> String {
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return standard + String(repeating: "=", count: (4 - standard.count % 4) % 4)
    }
}

extension SandboxNetworkHarness {
    /// What the issuer's backend does when its app asks to add the card: a single-use
    /// provision token for it and one wallet (`POST /v1/provision-tokens`).
    func provisionToken(wallet: String) async throws -> (String, GuideExample) {
        let request = #"{"card_id": "\#(cardID)", "wallet": "\#(wallet)"}"#
        let answer = try await server.raw.send(.post, "/v1/provision-tokens", token: apiKey, body: Data(request.utf8))
        #expect(answer.status == 201, "\(answer.text)")
        let token = try answer.decode(Components.Schemas.ProvisionToken.self).provisionToken
        let example = try GuideExample.exchange(
            "provision-token-\(wallet)", "POST", "/v1/provision-tokens", bearer: GuideJSON.secret(apiKey), body: request,
            answer: answer)
        return (token, example)
    }
}
