import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

/// Google Wallet's yellow path: a token pushed through UPP `NEEDS_IDENTITY_VERIFICATION`,
/// resumed with `tokenize` and verified by a one-time code through the issuer's webhook, by the
/// issuer's app (app-to-app, Visa's form), or by the issuer's customer service; each activation
/// goes through the network and reaches Provisio.
@Suite struct GoogleWalletYellowPathTests {
    @Test(arguments: TestEngine.available)
    func oneTimeCodeThroughTheIssuersWebhook(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                _ = try await server.api(h.apiKey).createWebhookEndpoint(
                    body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
                ).created
                receiver.setAnswer(#"{"channels":[{"type":"sms","masked":"******4821"}]}"#)
                await h.network.relayOTPsThroughIssuer()
                let google = try await h.googleWallet(keys)
                let result = try await h.pushUPP(into: google, ProvisioCredentialsGenerator(harness: h))
                #expect(result.tokenState == .needsIdentityVerification && result.cardResult)
                #expect(try await h.issuerToken(result.issuerTokenID).state == .pendingVerification)

                let verification = try await google.tokenize(tokenServiceProvider: .visa, issuerTokenID: result.issuerTokenID)
                #expect(verification.methods == [.appToApp, .otp, .customerService])
                let otp = try await google.requestOTP(tokenServiceProvider: .visa, issuerTokenID: result.issuerTokenID)
                // The issuer's webhook got the code to send the cardholder.
                let sent = try #require(receiver.deliveries.last)
                #expect(try WebhookEvent<WebhookPayload.OTPRequested>(sent.body).data.code == otp.code)

                let wrong = otp.code == "000000" ? "111111" : "000000"
                let refused = await networkError {
                    try await google.submitOTP(tokenServiceProvider: .visa, issuerTokenID: result.issuerTokenID, code: wrong)
                }
                #expect(refused?.code == .sandboxOTPInvalid)
                #expect(try await h.state(in: google, result) == .needsIdentityVerification)
                let state = try await google.submitOTP(
                    tokenServiceProvider: .visa, issuerTokenID: result.issuerTokenID, code: otp.code)
                #expect(state == .active)
                let issued = try await h.issuerToken(result.issuerTokenID)
                #expect(issued.state == .active && issued.networkState == "otp_verified")

                // Nothing left to verify.
                let done = await networkError {
                    try await google.tokenize(tokenServiceProvider: .visa, issuerTokenID: result.issuerTokenID)
                }
                #expect(done?.code == .sandboxGoogleInvalidTokenState && done?.message.contains("15004") == true)
                let unknown = await networkError {
                    try await google.tokenize(tokenServiceProvider: .visa, issuerTokenID: "tok_nope")
                }
                #expect(unknown?.code == .sandboxGoogleTokenNotFound)
                try h.expectNoPAN(result: result, google: google)
                await h.expectNoPANInGoogle(google, [verification])
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func appToAppDeclinedStaysPendingApprovedActivates(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                let google = try await h.googleWallet(keys)
                let result = try await h.pushUPP(into: google, ProvisioCredentialsGenerator(harness: h))
                let id = result.issuerTokenID
                let networkToken = try #require(await h.network.allTokens().first)

                // Google Wallet starts the issuer's app with the TSP's intent.
                let intent = try await google.startAppToApp(tokenServiceProvider: .visa, issuerTokenID: id)
                #expect(intent.callingPackage == "com.google.android.gms")
                #expect(intent.packageName == SandboxGoogleWallet.defaultIssuerAppPackage)
                #expect(intent.action == SandboxGoogleWallet.defaultIssuerAppPackage + ".a2a")
                #expect(!intent.extraText.contains("+") && !intent.extraText.contains("/") && !intent.extraText.contains("="))
                let payload = try #require(GoogleAppToAppPayload(extraText: intent.extraText))
                #expect(payload.tokenReferenceID == networkToken.networkTokenRef && payload.panReferenceID == h.cardID)
                #expect(payload.panLast4 == "1111" && payload.tokenRequestorID == SandboxGoogleWallet.tokenRequestorID)
                #expect(payload.deviceID == google.stableHardwareID && payload.walletAccountID == google.activeWalletID)
                #expect(!intent.extraText.contains(SandboxNetworkHarness.pan))

                // The cardholder cancels in the app: still pending, with the reason.
                let declined = try await google.completeAppToApp(
                    tokenServiceProvider: .visa, issuerTokenID: id, response: .declined)
                #expect(declined.tokenState == .needsIdentityVerification && declined.reason?.hasPrefix("declined") == true)
                #expect(try await h.issuerToken(id).state == .pendingVerification)
                // An answer Google did not ask for.
                let unasked = await networkError {
                    try await google.completeAppToApp(tokenServiceProvider: .visa, issuerTokenID: id, response: .failure)
                }
                #expect(unasked?.code == .sandboxGoogleVerificationUnavailable)
                _ = try await google.startAppToApp(tokenServiceProvider: .visa, issuerTokenID: id)
                let failed = try await google.completeAppToApp(tokenServiceProvider: .visa, issuerTokenID: id, response: .failure)
                #expect(failed.tokenState == .needsIdentityVerification && failed.reason?.hasPrefix("failure") == true)

                // Approved, with activation data that is not the issuer's: refused by the network.
                _ = try await google.startAppToApp(tokenServiceProvider: .visa, issuerTokenID: id)
                let forged = await networkError {
                    try await google.completeAppToApp(
                        tokenServiceProvider: .visa, issuerTokenID: id, response: .approved(activationData: "not a tav"))
                }
                #expect(forged?.code == .tavMalformed)
                #expect(try await h.state(in: google, result) == .needsIdentityVerification)

                // Approved with Provisio's activation data: Google Wallet hands it to the network.
                let tav = try await h.activationData(tokenID: id)
                let approved = try await google.completeAppToApp(
                    tokenServiceProvider: .visa, issuerTokenID: id, response: .approved(activationData: tav))
                #expect(approved.tokenState == .active && approved.reason == nil)
                let issued = try await h.issuerToken(id)
                #expect(issued.state == .active && issued.networkState == "activated")

                // Visa's other way: the issuer activates with the network itself and returns no data.
                let second = try await h.pushUPP(into: google, ProvisioCredentialsGenerator(harness: h))
                let secondRef = try #require(
                    await h.network.allTokens().first { $0.issuerTokenID == second.issuerTokenID }?.networkTokenRef)
                _ = try await google.startAppToApp(tokenServiceProvider: .visa, issuerTokenID: second.issuerTokenID)
                let notYet = try await google.completeAppToApp(
                    tokenServiceProvider: .visa, issuerTokenID: second.issuerTokenID, response: .approved(activationData: nil))
                #expect(notYet.tokenState == .needsIdentityVerification && notYet.reason != nil)
                _ = try await google.startAppToApp(tokenServiceProvider: .visa, issuerTokenID: second.issuerTokenID)
                try await h.network.verifyActivationData(
                    networkTokenRef: secondRef, activationData: try await h.activationData(tokenID: second.issuerTokenID))
                let byIssuer = try await google.completeAppToApp(
                    tokenServiceProvider: .visa, issuerTokenID: second.issuerTokenID, response: .approved(activationData: nil))
                #expect(byIssuer.tokenState == .active && byIssuer.reason == nil)
                await h.expectNoPANInGoogle(google, [intent, declined, approved])
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func customerServiceActivates(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                let google = try await h.googleWallet(keys)
                let result = try await h.pushUPP(into: google, ProvisioCredentialsGenerator(harness: h))
                let verification = try await google.tokenize(tokenServiceProvider: .visa, issuerTokenID: result.issuerTokenID)
                #expect(verification.methods.contains(.customerService))

                // The cardholder calls the issuer; the agent has Provisio ask the network.
                let activated = try await server.api(h.apiKey).activateToken(
                    path: .init(id: result.issuerTokenID),
                    body: .json(.init(mode: .customerService, reasonCode: "agent_7_verified_id"))
                ).ok.body.json
                #expect(activated.state == .active)
                #expect(try await h.state(in: google, result) == .active)
                #expect(await h.network.allTokens().first?.state == .active)
            }
        }
    }
}
