import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxGoogleWalletAPI
import Testing

@testable import ProvisioSandboxServer

/// The sandbox's Google Wallet over HTTP, as an Android team's tooling or the demo drives it:
/// Provisio and Google exchange keys through their APIs, the push runs in Google's two UPP
/// halves with Provisio's mobile route in between, and the yellow path and the cardholder's
/// deletion go through the sandbox's document only. Every answer is held to the document.
@Suite struct GoogleWalletHTTPTests {
    typealias Google = SandboxGoogleWalletClient

    @Test(arguments: TestEngine.available)
    func unifiedPushProvisioningThenTheCardholdersDeletion(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server, googleKey: keys.google) { h in
                let google = h.google
                let wallet = try await google.wallet()
                #expect(wallet.environment == .sandbox && wallet.encryptionKeys == keys.google.publicKeys.map(\.armored))
                #expect(wallet.issuerKeyFingerprints.isEmpty)
                try await h.exchangeGoogleKeys()
                #expect(try await google.wallet().issuerKeyFingerprints.count == 1)

                let result = try await h.pushUPP()
                #expect(result.resultCode == -1 && result.tokenState == .tokenStateActive)
                #expect(result.cardSaved && !result.isBounceProvisioned)
                let token = try await google.token(.tokenProviderVisa, issuerTokenID: result.issuerTokenId)
                #expect(token.fpanLastFour == "1111" && token.network == .visa && token.tokenState == .tokenStateActive)
                #expect(try await google.tokens().map(\.issuerTokenId) == [result.issuerTokenId])
                #expect(try await google.isTokenized(lastDigits: "1111", network: .visa, tsp: .tokenProviderVisa))
                #expect(!(try await google.isTokenized(lastDigits: "1111", network: .mastercard, tsp: .tokenProviderMastercard)))
                let issued = try await h.issuerToken(result.issuerTokenId)
                #expect(issued.wallet == .googlePay && issued.deviceType == .phone && issued.state == .active)

                // The token is another provider's under that id: TapAndPay's 15003.
                let otherProvider = try await h.raw(
                    .get, "/sandbox/v1/google-wallet/tokens/TOKEN_PROVIDER_MASTERCARD/\(result.issuerTokenId)")
                #expect(otherProvider.status == 404 && otherProvider.googleErrorCode == "sandbox_google_token_not_found")

                // requestDeleteToken: 204, gone from the wallet, deleted at Provisio by the network.
                let deletion = try await h.raw(
                    .delete, "/sandbox/v1/google-wallet/tokens/TOKEN_PROVIDER_VISA/\(result.issuerTokenId)")
                #expect(deletion.status == 204 && deletion.body.isEmpty)
                #expect(try await google.tokens().isEmpty)
                let deleted = try await h.issuerToken(result.issuerTokenId)
                #expect(deleted.state == .deleted && deleted.networkState == "removed_from_wallet")
                #expect(!(try await google.isTokenized(lastDigits: "1111", network: .visa, tsp: .tokenProviderVisa)))
                let again = await sandboxError {
                    try await google.requestDeleteToken(.tokenProviderVisa, issuerTokenID: result.issuerTokenId)
                }
                #expect(again?.code == .sandboxGoogleTokenNotFound)

                let pans = [SandboxHTTPHarness.pan] + (await h.tokenPANs())
                for answer in h.answers.all {
                    for pan in pans { #expect(!answer.text.contains(pan), "\(answer.operationID) carries a card number") }
                }
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func bounceAndLegacyPushes(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server, googleKey: keys.google) { h in
                try await h.exchangeGoogleKeys()
                // A push marked bounce-provisioned needs Google Wallet to have started one.
                let unbounced = await sandboxError { _ = try await h.pushUPP(bounce: true) }
                #expect(unbounced?.code == .sandboxGoogleBounceUnknown)
                let intent = try await h.google.beginBounceProvisioning()
                #expect(intent.action == "com.google.android.gms.tapandpay.issuer.ACTION_INITIATE_PROVISIONING")
                let bounced = try await h.pushUPP(bounce: true)
                #expect(bounced.isBounceProvisioned && bounced.tokenState == .tokenStateActive)

                // The legacy PushTokenizeRequest, from Provisio's answer without a credentials request.
                let push = try await server.api(h.issuerAPIKey).provisionGooglePay(
                    path: .init(id: h.cardID), body: .json(.init())
                ).ok.body.json
                #expect(push.googleOpaquePaymentCard == nil)
                let legacy = try await h.google.pushTokenize(
                    .init(
                        opaquePaymentCard: push.opaquePaymentCard, network: .visa, tokenServiceProvider: .tokenProviderVisa,
                        displayName: push.displayName, lastDigits: push.lastDigits,
                        userAddress: .init(name: push.userAddress.name)))
                #expect(legacy.tokenState == .tokenStateActive && !legacy.cardSaved)
                #expect(try await h.google.tokens().count == 2)

                // An opaque payment card the token service cannot open: TapAndPay's 15024.
                var tampered = Array(push.opaquePaymentCard)
                tampered[tampered.count - 5] = tampered[tampered.count - 5] == "A" ? "B" : "A"
                let refused = await sandboxError {
                    _ = try await h.google.pushTokenize(
                        .init(
                            opaquePaymentCard: String(tampered), network: .visa, tokenServiceProvider: .tokenProviderVisa,
                            displayName: push.displayName, lastDigits: push.lastDigits))
                }
                #expect(refused?.code == .sandboxGoogleTokenizeError)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func googleRefusesGoogleOPCsItCannotTrust(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server, googleKey: keys.google) { h in
                // Provisio encrypts to Google's key, but the issuer's key was never registered.
                _ = try await server.api(h.issuerAPIKey).setGooglePaySettings(
                    body: .json(.init(googleEncryptionKeys: try await h.google.wallet().encryptionKeys))
                ).ok
                let unregistered = await sandboxError { _ = try await h.pushUPP() }
                #expect(unregistered?.code == .sandboxGoogleOpcSignerUnknown)

                // A key that is not an OpenPGP public key.
                let garbage = try await h.raw(
                    .post, "/sandbox/v1/google-wallet/issuer-keys",
                    json: [
                        "public_key": "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nnot a key\n-----END PGP PUBLIC KEY BLOCK-----\n"
                    ])
                #expect(garbage.status == 422 && garbage.googleErrorCode == "sandbox_google_issuer_key_invalid")
                // A secret key is not what an issuer registers.
                let secret = try await h.raw(
                    .post, "/sandbox/v1/google-wallet/issuer-keys", json: ["public_key": .string(keys.otherIssuer.armored)])
                #expect(secret.status == 422 && secret.googleErrorCode == "sandbox_google_issuer_key_invalid")
                try await h.exchangeGoogleKeys()

                // Google's own card changed on the way, then answered twice.
                let session = try await h.google.beginPush(h.pushRequest())
                let push = try await h.provisio(session)
                var tampered = Array(try #require(push.googleOpaquePaymentCard))
                tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
                let changed = try await h.raw(
                    .post, "/sandbox/v1/google-wallet/push-sessions/\(session.id)/credentials",
                    json: [
                        "opaque_payment_card": .string(push.opaquePaymentCard),
                        "google_opaque_payment_card": .string(String(tampered)),
                    ])
                #expect(changed.status == 422 && changed.googleErrorCode == "sandbox_google_opc_unreadable")
                let spent = try await h.raw(
                    .post, "/sandbox/v1/google-wallet/push-sessions/\(session.id)/credentials",
                    json: ["opaque_payment_card": .string(push.opaquePaymentCard)])
                #expect(spent.status == 404 && spent.googleErrorCode == "sandbox_google_session_unknown")

                // Another push's Google OPC: it names another server session.
                let first = try await h.google.beginPush(h.pushRequest())
                let second = try await h.google.beginPush(h.pushRequest())
                let forFirst = try await h.provisio(first)
                let crossed = await sandboxError {
                    _ = try await h.google.completePush(
                        sessionID: second.id,
                        credentials: .init(
                            opaquePaymentCard: forFirst.opaquePaymentCard,
                            googleOpaquePaymentCard: forFirst.googleOpaquePaymentCard))
                }
                #expect(crossed?.code == .sandboxGoogleOpcSessionMismatch)
                #expect(try await h.google.tokens().isEmpty, "no refused push installed a token")

                // Words off the document.
                let provider = try await h.raw(.get, "/sandbox/v1/google-wallet/tokens/TOKEN_PROVIDER_NOPE/tok_1")
                #expect(provider.status == 400 && provider.googleErrorCode == "sandbox_invalid_request")
                let network = try await h.raw(
                    .post, "/sandbox/v1/google-wallet/is-tokenized",
                    json: ["last_digits": "1111", "network": "VISA_CLASSIC", "token_service_provider": "TOKEN_PROVIDER_VISA"])
                #expect(network.status == 400 && network.googleErrorCode == "sandbox_invalid_request")
                #expect(network.text.contains("MASTERCARD"), "the refusal lists the words the field takes")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func theYellowPathByTheIssuersAppAndByACode(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server, googleKey: keys.google) { h in
                try await h.exchangeGoogleKeys()
                try await h.client.setRisk(SandboxHTTPHarness.wireRisk(.requireVerification))
                let google = h.google
                let yellow = try await h.pushUPP()
                #expect(yellow.tokenState == .tokenStateNeedsIdentityVerification)
                let choice = try await google.tokenize(.tokenProviderVisa, issuerTokenID: yellow.issuerTokenId)
                #expect(choice.methods.contains(.appToApp) && choice.tokenState == .tokenStateNeedsIdentityVerification)

                // The issuer's app declines first: still waiting, with the reason.
                _ = try await google.startAppToApp(.tokenProviderVisa, issuerTokenID: yellow.issuerTokenId)
                let declined = try await google.completeAppToApp(
                    .tokenProviderVisa, issuerTokenID: yellow.issuerTokenId, response: .declined)
                #expect(declined.tokenState == .tokenStateNeedsIdentityVerification && declined.reason != nil)
                // Data goes only with approved.
                let mixed = try await h.raw(
                    .post, "/sandbox/v1/google-wallet/tokens/TOKEN_PROVIDER_VISA/\(yellow.issuerTokenId)/step-up-response",
                    json: ["step_up_response": "declined", "activation_data": "x"])
                #expect(mixed.status == 400 && mixed.googleErrorCode == "sandbox_invalid_request")

                let intent = try await google.startAppToApp(.tokenProviderVisa, issuerTokenID: yellow.issuerTokenId)
                #expect(intent.callingPackage == "com.google.android.gms" && intent.action.hasSuffix(".a2a"))
                let payload = try #require(GoogleAppToAppPayload(extraText: intent.extraText))
                let phone = try await google.wallet().stableHardwareId
                let named = try await h.issuerToken(yellow.issuerTokenId).networkTokenRef
                #expect(payload.panLast4 == "1111" && payload.deviceID == phone && payload.tokenReferenceID == named)
                let tav = try await h.activationData(issuerTokenID: yellow.issuerTokenId)
                let approved = try await google.completeAppToApp(
                    .tokenProviderVisa, issuerTokenID: yellow.issuerTokenId, response: .approved, activationData: tav)
                #expect(approved.tokenState == .tokenStateActive && approved.reason == nil)
                #expect(try await h.issuerToken(yellow.issuerTokenId).state == .active)
                let notPending = await sandboxError {
                    _ = try await google.tokenize(.tokenProviderVisa, issuerTokenID: yellow.issuerTokenId)
                }
                #expect(notPending?.code == .sandboxGoogleInvalidTokenState)

                // A second yellow token, verified by a one-time code relayed through Provisio.
                let byCode = try await h.pushUPP()
                let code = try await google.requestOneTimeCode(.tokenProviderVisa, issuerTokenID: byCode.issuerTokenId)
                #expect(code.code.count == 6)
                let wrong = await sandboxError {
                    _ = try await google.verifyOneTimeCode(
                        .tokenProviderVisa, issuerTokenID: byCode.issuerTokenId, code: code.code == "000000" ? "111111" : "000000"
                    )
                }
                #expect(wrong?.code == .sandboxOTPInvalid)
                let verified = try await google.verifyOneTimeCode(
                    .tokenProviderVisa, issuerTokenID: byCode.issuerTokenId, code: code.code)
                #expect(verified.tokenState == .tokenStateActive)
                #expect(try await h.issuerToken(byCode.issuerTokenId).state == .active)
            }
        }
    }

    /// Every TapAndPay constant of the model is a word of the document, and back.
    @Test func theDocumentsWordsAreTapAndPaysConstants() throws {
        typealias Wire = ProvisioSandboxGoogleWalletAPI.Components.Schemas
        for provider in GoogleTokenServiceProvider.allCases {
            #expect(try GoogleTokenServiceProvider(Wire.GoogleTokenServiceProvider(provider)) == provider)
        }
        #expect(Wire.GoogleTokenServiceProvider.allCases.count == GoogleTokenServiceProvider.allCases.count)
        for network in GoogleCardNetwork.allCases {
            #expect(try GoogleCardNetwork(Wire.GoogleCardNetwork(network)) == network)
        }
        #expect(Wire.GoogleCardNetwork.allCases.count == GoogleCardNetwork.allCases.count)
        for state in GoogleTokenState.allCases {
            #expect(try Wire.GoogleTokenState(state).rawValue == state.constantName)
        }
        #expect(Wire.GoogleTokenState.allCases.count == GoogleTokenState.allCases.count)
        for method in GoogleIdentityVerificationMethod.allCases {
            #expect(try Wire.GoogleIdentityVerification.MethodsPayloadPayload(method).rawValue == method.rawValue)
        }
    }
}

extension SandboxHTTPHarness {
    /// `SandboxClient`'s Google Wallet calls; every answer is held to the document and kept.
    var google: SandboxGoogleWalletClient {
        SandboxClient(
            baseURL: "http://127.0.0.1:\(port)", apiKey: sandboxKey,
            middlewares: [DocumentedAnswers(contract: .googleWallet, log: answers)]
        ).googleWallet
    }

    /// The issuer and Google exchange keys through their APIs: Provisio encrypts to Google's
    /// keys, Google accepts Provisio's signing key.
    func exchangeGoogleKeys() async throws {
        let settings = try await server.api(issuerAPIKey).setGooglePaySettings(
            body: .json(.init(googleEncryptionKeys: try await google.wallet().encryptionKeys))
        ).ok.body.json
        _ = try await google.registerIssuerKey(armored: settings.issuerSigningKey.armored)
    }

    func pushRequest(bounce: Bool? = nil) -> SandboxGoogleWalletClient.PushSessionRequest {
        .init(
            network: .visa, tokenServiceProvider: .tokenProviderVisa, displayName: "Visa •••• 1111", lastDigits: "1111",
            isBounceProvisioned: bounce)
    }

    /// The app's backend: Provisio's `google-pay` route with Google's credentials request.
    func provisio(_ session: SandboxGoogleWalletClient.PushSession) async throws
        -> ProvisioAPI.Components.Schemas.WalletPushData
    {
        let request = session.credentialsRequest
        return try await server.api(issuerAPIKey).provisionGooglePay(
            path: .init(id: cardID),
            body: .json(
                .init(
                    credentialsRequest: .init(
                        serverSessionId: request.serverSessionId, stableHardwareId: request.stableHardwareId,
                        walletId: request.walletId, tokenRequestorId: request.tokenRequestorId,
                        googleOpaquePaymentCardRequested: request.googleOpaquePaymentCardRequested)))
        ).ok.body.json
    }

    /// UPP over HTTP: Google's request, Provisio's two cards, Google's result.
    func pushUPP(bounce: Bool = false) async throws -> SandboxGoogleWalletClient.PushTokenizeResult {
        let session = try await google.beginPush(pushRequest(bounce: bounce ? true : nil))
        let push = try await provisio(session)
        return try await google.completePush(
            sessionID: session.id,
            credentials: .init(opaquePaymentCard: push.opaquePaymentCard, googleOpaquePaymentCard: push.googleOpaquePaymentCard))
    }
}

extension RawClient.Response {
    /// The error code of a Google Wallet document's error body.
    var googleErrorCode: String? {
        try? decode(ProvisioSandboxGoogleWalletAPI.Components.Schemas._Error.self).error.code
    }
}

/// The `ProvisioError` a sandbox call throws (nil when it succeeds).
private func sandboxError(_ call: () async throws -> Void) async -> ProvisioError? {
    do {
        try await call()
        return nil
    } catch let error as ProvisioError {
        return error
    } catch {
        Issue.record("expected a ProvisioError, got \(error)")
        return nil
    }
}
