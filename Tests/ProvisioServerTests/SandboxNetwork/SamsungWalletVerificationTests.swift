import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// Samsung Wallet's yellow path: a `PENDING_ACTIVATION` card verified by a one-time code that
/// Provisio's webhook relays, in the issuer's app (app-to-app, Mastercard's and Visa's forms), or
/// by the issuer's agent; each through the network, and Provisio records the activation.
@Suite struct SamsungWalletVerificationTests {
    @Test(arguments: TestEngine.available)
    func oneTimeCodeThroughProvisiosWebhookOnTheWatch(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        receiver.setAnswer(#"{"channels":[{"type":"sms","masked":"+1 ••• ••• 4821"}]}"#)
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                _ = try await server.api(h.apiKey).createWebhookEndpoint(
                    body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
                ).created
                await h.network.relayOTPsThroughIssuer()
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let card = try await h.addToWatch(samsung)
                #expect(card.cardStatus == .pendingActivation && card.deviceType == .gear)
                let (_, issued) = try await h.tokens(of: card)
                #expect(issued.state == .pendingVerification && issued.wallet == .samsungPay && issued.deviceType == .watch)

                // No app-to-app on the watch.
                #expect(try await samsung.verificationMethods(cardID: card.cardID) == [.oneTimeCode, .customerService])
                let noApp = await networkError { try await samsung.openBankingApp(cardID: card.cardID) }
                #expect(noApp?.code == .sandboxSamsungNotSupported && noApp?.message.contains("(-3)") == true)

                // Samsung Wallet shows where the issuer sent the code; the cardholder reads it there.
                let channels = try await samsung.requestOneTimeCode(cardID: card.cardID)
                #expect(channels.map(\.type) == ["sms"] && channels.map(\.masked) == ["+1 ••• ••• 4821"])
                let sent = try #require(receiver.deliveries.last)
                let code = try WebhookEvent<WebhookPayload.OTPRequested>(sent.body).data.code
                let wrong = code == "000000" ? "111111" : "000000"
                let refused = await networkError { try await samsung.submitOneTimeCode(wrong, cardID: card.cardID) }
                #expect(refused?.code == .sandboxOTPInvalid)
                #expect(try await h.samsungState(card, in: samsung) == .pendingActivation)

                let activated = try await samsung.submitOneTimeCode(code, cardID: card.cardID)
                #expect(activated.cardStatus == .active)
                #expect(try await h.samsungState(card, in: samsung) == .active)
                let recorded = try await h.issuerToken(issued.id)
                #expect(recorded.state == .active && recorded.networkState == "otp_verified")
                // Active now: no method is offered, and no code is issued.
                #expect(try await samsung.verificationMethods(cardID: card.cardID).isEmpty)
                let done = await networkError { try await samsung.requestOneTimeCode(cardID: card.cardID) }
                #expect(done?.code == .sandboxSamsungNotSupported)
                try await h.expectNoPANInSamsung(samsung)
            }
        }
    }

    /// Visa's form: Samsung Wallet hands the app the token's references; the app gets activation
    /// data from Provisio and answers `accepted` with it, which the wallet hands the network.
    /// Mastercard's form: the bank activates through the network itself and answers `accepted`.
    @Test(arguments: TestEngine.available)
    func appToAppInVisasAndMastercardsForm(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let card = try await h.addToSamsung(samsung)
                #expect(card.cardStatus == .pendingActivation)
                #expect(
                    try await samsung.verificationMethods(cardID: card.cardID) == [.appToApp, .oneTimeCode, .customerService])
                let (visaToken, visaIssued) = try await h.tokens(of: card)

                let request = try await samsung.openBankingApp(cardID: card.cardID)
                #expect(request.action == SamsungAppToAppRequest.visaAction && request.tokenizationProvider == .visa)
                let visaJSON = try #require(Self.base64URLDecoded(request.extraText))
                let visa = try #require(try JSONSerialization.jsonObject(with: visaJSON) as? [String: String])
                let info = try await samsung.getWalletInfo(SandboxNetworkHarness.samsungPartner)
                #expect(
                    visa == [
                        "panReferenceID": h.cardID, "tokenRequestorID": SandboxSamsungWallet.tokenRequestorID,
                        "tokenReferenceID": visaToken.networkTokenRef, "panLast4": "1111", "deviceID": info.deviceID,
                        "walletAccountID": info.walletUserID,
                    ])

                // The app finds Provisio's token by the reference; a refusal leaves the card pending.
                let found = try #require(try await h.issuerTokens().first { $0.networkTokenRef == visa["tokenReferenceID"] })
                #expect(found.id == visaIssued.id)
                for answer in [SamsungAppToAppResult.declined, .failure, .appNotReady] {
                    #expect(try await samsung.completeAppToApp(request, result: answer).cardStatus == .pendingActivation)
                }
                let forged = await networkError {
                    try await samsung.completeAppToApp(request, result: .accepted(activationCode: "not a tav"))
                }
                #expect(forged?.code == .tavMalformed)
                #expect(try await h.samsungState(card, in: samsung) == .pendingActivation)
                let tav = try await h.activationData(tokenID: found.id)
                let activated = try await samsung.completeAppToApp(request, result: .accepted(activationCode: tav))
                #expect(activated.cardStatus == .active)
                let recorded = try await h.issuerToken(found.id)
                #expect(recorded.state == .active && recorded.networkState == "activated")

                // Mastercard: Base64 JSON with the token's unique reference and the card's suffix and expiry.
                let mastercardID = try await h.makeCard(pan: SandboxNetworkHarness.mastercardPAN)
                let push = try await h.samsungPushData(cardID: mastercardID)
                #expect(push.provider == .mastercard)
                let mcCard = try await samsung.addCard(h.addCardInfo(push), SandboxNetworkHarness.samsungPartner)
                #expect(mcCard.cardStatus == .pendingActivation && mcCard.last4FPAN == "4444")
                let (mcToken, mcIssued) = try await h.tokens(of: mcCard)
                let mcRequest = try await samsung.openBankingApp(cardID: mcCard.cardID)
                #expect(mcRequest.action == SamsungAppToAppRequest.mastercardAction)
                let mastercardJSON = try #require(BinaryText.decodeBase64(mcRequest.extraText))
                let mastercard = try #require(try JSONSerialization.jsonObject(with: mastercardJSON) as? [String: String])
                #expect(
                    mastercard == [
                        "paymentAppProviderId": SandboxSamsungWallet.paymentAppProviderID,
                        "paymentAppInstanceId": info.walletDMID, "tokenUniqueReference": mcToken.networkTokenRef,
                        "accountPanSuffix": "4444", "accountExpiry": "1230",
                    ])
                // The bank's backend activates through the network, then the app answers.
                let mcTAV = try await h.activationData(tokenID: mcIssued.id)
                try await h.network.verifyActivationData(networkTokenRef: mcToken.networkTokenRef, activationData: mcTAV)
                let mcActive = try await samsung.completeAppToApp(mcRequest, result: .accepted(activationCode: nil))
                #expect(mcActive.cardStatus == .active)
                #expect(try await server.api(h.apiKey).getToken(path: .init(id: mcIssued.id)).ok.body.json.state == .active)
                try await h.expectNoPANInSamsung(
                    samsung, also: [request.extraText, mcRequest.extraText, "\(visa)", "\(mastercard)"])
            }
        }
    }

    /// American Express offers no app-to-app; the cardholder calls the issuer, whose agent
    /// activates through Provisio and the network.
    @Test(arguments: TestEngine.available)
    func customerServiceAndNoAppToAppForAmericanExpress(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let amexID = try await h.makeCard(pan: SandboxNetworkHarness.amexPAN)
                let push = try await h.samsungPushData(cardID: amexID)
                #expect(push.provider == .amex)
                let card = try await h.addToSamsung(samsung, cardID: amexID)
                #expect(card.cardStatus == .pendingActivation && card.last4FPAN == "0005")
                #expect(try await samsung.verificationMethods(cardID: card.cardID) == [.oneTimeCode, .customerService])
                let noApp = await networkError { try await samsung.openBankingApp(cardID: card.cardID) }
                #expect(noApp?.code == .sandboxSamsungNotSupported)

                let (_, issued) = try await h.tokens(of: card)
                let agent = try await server.api(h.apiKey).activateToken(
                    path: .init(id: issued.id), body: .json(.init(mode: .customerService, reasonCode: "agent_verified"))
                ).ok.body.json
                #expect(agent.state == .active)
                #expect(try await h.samsungState(card, in: samsung) == .active)
                try await h.expectNoPANInSamsung(samsung)
            }
        }
    }

    /// Base64URL without padding, as Visa's form is sent.
    static func base64URLDecoded(_ text: String) -> Data? {
        BinaryText.decodeBase64(text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/"))
    }
}
