import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

/// Issue 25 through the sandbox network: Wallet shows the offers' masked contacts before a code
/// is sent, the cardholder chooses the channel, the network refuses one not offered and sends
/// the chosen one with a challenge id, the device and the token requestor.
@Suite(.timeLimit(.minutes(10))) struct ContactOffersInTheSandboxTests {
    @Test(arguments: TestEngine.available)
    func aWatchIsOfferedAMaskedEmailAndTheCodeGoesThere(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                let api = server.api(h.apiKey)
                _ = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(cardholderEmail: "jane.appleseed@example.com"))
                ).ok
                _ = try await api.setActivationMethodSettings(
                    body: .json(.init(customerServicePhoneNumber: "+1 800 555 0100"))
                ).ok
                _ = try await api.createWebhookEndpoint(
                    body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
                ).created
                receiver.setAnswer(#"{"channels":[{"type":"email","masked":"j•••@example.com"}]}"#)
                await h.network.relayOTPsThroughIssuer()

                let outcome = try #require(await h.network.outcome(sessionID: try await h.add(on: .watch).sessionID))
                #expect(outcome.activationMethods == ["otp_email", "customer_service"])
                let offers = [
                    SandboxActivationOffer(method: "otp_email", contact: "j•••@example.com"),
                    SandboxActivationOffer(method: "customer_service", contact: "+1 800 555 0100"),
                ]
                #expect(outcome.activationOffers == offers)
                // Before anything is sent, Wallet shows where a code would go.
                #expect(try await h.network.activationOffers(networkTokenRef: outcome.networkTokenRef) == offers)
                #expect(receiver.deliveries.isEmpty)

                // SMS was not offered (no phone on the card).
                let sms = await networkError {
                    try await h.network.requestOTP(networkTokenRef: outcome.networkTokenRef, channel: .sms)
                }
                #expect(sms?.code == .sandboxActivationMethodNotOffered, "\(String(describing: sms))")
                #expect(receiver.deliveries.isEmpty)

                let otp = try await h.network.requestOTP(networkTokenRef: outcome.networkTokenRef, channel: .email)
                #expect(otp.channel == .email)
                let channels = await h.network.otpChannels(networkTokenRef: outcome.networkTokenRef)
                #expect(channels.map(\.type) == ["email"] && channels.map(\.masked) == ["j•••@example.com"])
                let body = try #require(receiver.deliveries.last).body
                let json = try JSONSerialization.jsonObject(with: body) as? [String: Any]
                let data = try #require(json?["data"] as? [String: Any])
                #expect(data["channel"] as? String == "email" && data["challenge_id"] as? String == otp.challengeID)
                #expect(data["destination_masked"] as? String == "j•••@example.com")
                #expect((data["device"] as? [String: String])?["name"] == "Apple Watch")
                #expect((data["token_requestor"] as? [String: String])?["name"] == "APPLE_PAY")
                #expect(!String(decoding: body, as: UTF8.self).contains("jane.appleseed@example.com"))

                let activated = try await h.network.verifyOTP(networkTokenRef: outcome.networkTokenRef, code: otp.code)
                #expect(activated.state == .active)
                #expect(!server.logs.text.contains("jane.appleseed@example.com"))
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func samsungWalletListsTheMaskedChannelsAndSendsTheChosenOne(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        receiver.setAnswer(#"{"channels":[{"type":"email","masked":"j•••@example.com"}]}"#)
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                let api = server.api(h.apiKey)
                _ = try await api.updateCard(
                    path: .init(id: h.cardID),
                    body: .json(.init(cardholderPhone: "+14155550123", cardholderEmail: "jane.appleseed@example.com"))
                ).ok
                _ = try await api.createWebhookEndpoint(
                    body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
                ).created
                await h.network.relayOTPsThroughIssuer()
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let card = try await h.addToWatch(samsung)
                // One "one-time code" method, its two channels listed with their masked contacts.
                #expect(try await samsung.verificationMethods(cardID: card.cardID) == [.oneTimeCode, .customerService])
                #expect(
                    try await samsung.oneTimeCodeOffers(cardID: card.cardID) == [
                        SandboxActivationOffer(method: "otp_sms", contact: "+•• ••• ••• 0123"),
                        SandboxActivationOffer(method: "otp_email", contact: "j•••@example.com"),
                    ])
                #expect(receiver.deliveries.isEmpty)
                let channels = try await samsung.requestOneTimeCode(cardID: card.cardID, channel: .email)
                #expect(channels.map(\.type) == ["email"])
                let body = try #require(receiver.deliveries.last).body
                let json = try JSONSerialization.jsonObject(with: body) as? [String: Any]
                let data = try #require(json?["data"] as? [String: Any])
                #expect(data["channel"] as? String == "email" && data["destination_masked"] as? String == "j•••@example.com")
                #expect((data["device"] as? [String: String])?["name"] == "Galaxy Watch")
                #expect((data["token_requestor"] as? [String: String])?["name"] == "SAMSUNG_PAY")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func googleWalletOffersOnlyTheEmailItHasAndRefusesSMS(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        receiver.setAnswer(#"{"channels":[{"type":"email","masked":"j•••@example.com"}]}"#)
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                let api = server.api(h.apiKey)
                _ = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(cardholderEmail: "jane.appleseed@example.com"))
                ).ok
                _ = try await api.createWebhookEndpoint(
                    body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
                ).created
                await h.network.relayOTPsThroughIssuer()
                let google = try await h.googleWallet(keys)
                let result = try await h.pushUPP(into: google, ProvisioCredentialsGenerator(harness: h))
                let id = result.issuerTokenID
                let verification = try await google.tokenize(tokenServiceProvider: .visa, issuerTokenID: id)
                #expect(verification.methods == [.appToApp, .otp, .customerService])
                #expect(
                    try await google.oneTimeCodeOffers(tokenServiceProvider: .visa, issuerTokenID: id) == [
                        SandboxActivationOffer(method: "otp_email", contact: "j•••@example.com")
                    ])
                let sms = await networkError {
                    try await google.requestOTP(tokenServiceProvider: .visa, issuerTokenID: id, channel: .sms)
                }
                #expect(sms?.code == .sandboxActivationMethodNotOffered, "\(String(describing: sms))")
                #expect(receiver.deliveries.isEmpty)
                let otp = try await google.requestOTP(tokenServiceProvider: .visa, issuerTokenID: id, channel: .email)
                let body = try #require(receiver.deliveries.last).body
                let json = try JSONSerialization.jsonObject(with: body) as? [String: Any]
                let data = try #require(json?["data"] as? [String: Any])
                #expect(data["channel"] as? String == "email" && data["challenge_id"] as? String == otp.challengeID)
                #expect((data["token_requestor"] as? [String: String])?["name"] == "GOOGLE_PAY")
                #expect((data["device"] as? [String: String])?["os"] == "Android")
                let state = try await google.submitOTP(tokenServiceProvider: .visa, issuerTokenID: id, code: otp.code)
                #expect(state == .active)
            }
        }
    }
}
