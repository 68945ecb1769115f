import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox

/// Google Pay on an Android phone: Unified Push Provisioning, activation from the issuer's app,
/// and the cardholder deleting the card in Google Wallet — the issuer's app and backend played
/// over Provisio's API, Google Wallet over the sandbox's (docs/android-wallets.md says what of
/// Google's behaviour is modelled from which public page).
extension DemoScenarios {
    typealias Google = SandboxGoogleWalletClient

    var google: SandboxGoogleWalletClient { sandbox.googleWallet }

    // MARK: 10

    func googleGreenUPP() async throws {
        guard await exchangeGoogleKeys() else { return }
        let card = try await world.createCard(
            customer: "hana", pan: "4000000000003220", name: "Hana Android", title: "Demo Visa for Android")
        let session = try await world.mobileSession(customer: "hana")
        guard let result = await googlePush(card, mobileToken: session) else { return }
        await transcript.check(
            result.resultCode == -1 && result.tokenState == .tokenStateActive && result.cardSaved,
            "Google Wallet: RESULT_OK, \(result.tokenState.rawValue), card saved to the Google Account")
        let token = try await token(card, issuerTokenID: result.issuerTokenId)
        await transcript.check(
            token?.state == .active && token?.wallet == .googlePay && token?.deviceType == .phone,
            "Provisio's token is \(token?.state.rawValue ?? "missing"), for \(token?.wallet.rawValue ?? "?") on a "
                + "\(token?.deviceType?.rawValue ?? "?") (EXTRA_ISSUER_TOKEN_ID \(result.issuerTokenId))")
        let event = await world.receiver.waitFor("token.activated", tokenID: token?.id)
        await transcript.check(event != nil, "webhook token.activated received")
        let tokenized = try await google.isTokenized(lastDigits: card.last4, network: .visa, tsp: .tokenProviderVisa)
        await transcript.check(tokenized, "isTokenized(\(card.last4), VISA): the app hides its \"Add to Google Pay\" button")
    }

    // MARK: 12

    func googleAppToApp() async throws {
        guard await exchangeGoogleKeys() else { return }
        let card = try await world.createCard(
            customer: "gina", pan: "4012888888881881", name: "Gina Android", title: "Demo Visa Rewards")
        _ = try await sandbox.setRisk(
            SandboxClient.Risk(
                last4: card.last4, deviceScore: 5, accountScore: 5, walletRecommendation: .requireVerification))
        let session = try await world.mobileSession(customer: "gina")
        guard let result = await googlePush(card, mobileToken: session) else { return }
        await transcript.check(
            result.tokenState == .tokenStateNeedsIdentityVerification,
            "Provisio decided yellow: the token needs identity verification in Google Wallet")
        let tsp = Google.TokenServiceProvider.tokenProviderVisa
        let choice = try await google.tokenize(tsp, issuerTokenID: result.issuerTokenId)
        await transcript.check(
            choice.methods.contains(.appToApp),
            "tokenize offers: \(choice.methods.map(\.rawValue).joined(separator: ", ")); the cardholder picks the bank's app")
        let intent = try await google.startAppToApp(tsp, issuerTokenID: result.issuerTokenId)
        let payload = GoogleAppToAppPayload(extraText: intent.extraText)
        await transcript.check(
            intent.callingPackage == "com.google.android.gms" && payload?.panLast4 == card.last4,
            "the app was started by Google Play services with EXTRA_TEXT naming the card •••• \(card.last4)")
        // The app's backend finds the token the intent names and asks Provisio for activation data.
        let named = try await world.tokens(cardID: card.id).first { $0.networkTokenRef == payload?.tokenReferenceID }
        let activation = try? await world.issuer.activateToken(
            path: .init(id: named?.id ?? result.issuerTokenId), body: .json(.init(mode: .tav))
        ).ok.body.json.activationData
        await transcript.check(activation != nil, "the backend fetched activation data from Provisio for that token")
        do {
            let outcome = try await google.completeAppToApp(
                tsp, issuerTokenID: result.issuerTokenId, response: .approved, activationData: activation)
            await transcript.check(
                outcome.tokenState == .tokenStateActive,
                "STEP_UP_RESPONSE approved: the network checked the data; Google Wallet shows \(outcome.tokenState.rawValue)")
        } catch let error as ProvisioError {
            await transcript.fail("Google Wallet refused the app's answer: \(error.code)")
        }
        let after = try await token(card, issuerTokenID: result.issuerTokenId)
        await transcript.check(after?.state == .active, "Provisio's token is active")
    }

    // MARK: 13

    func googleCardholderDeletes() async throws {
        guard let card = try await card(of: "hana"),
            let inWallet = try await google.tokens().first(where: { $0.fpanLastFour == card.last4 }),
            let token = try await token(card, issuerTokenID: inWallet.issuerTokenId)
        else {
            await transcript.fail("scenario 10 must run first (no Google Pay token for hana)")
            return
        }
        do {
            try await google.requestDeleteToken(.tokenProviderVisa, issuerTokenID: inWallet.issuerTokenId)
        } catch let error as ProvisioError {
            await transcript.fail("requestDeleteToken was refused: \(error.code)")
            return
        }
        let listed = try await google.tokens().contains { $0.issuerTokenId == inWallet.issuerTokenId }
        await transcript.check(!listed, "the cardholder confirmed requestDeleteToken: the token left Google Wallet")
        let event = await world.receiver.waitFor("token.deleted", tokenID: token.id)
        let after = try await world.tokens(cardID: card.id).first { $0.id == token.id }
        await transcript.check(
            after?.state == .deleted && event != nil,
            "the network told Provisio: token deleted (\(after?.networkState ?? "?")); token.deleted received")
        let tokenized = try await google.isTokenized(lastDigits: card.last4, network: .visa, tsp: .tokenProviderVisa)
        await transcript.check(!tokenized, "isTokenized is false again: the app may offer \"Add to Google Pay\"")
    }

    // MARK: Helpers

    /// Provisio's token for the wallet's `EXTRA_ISSUER_TOKEN_ID`: Provisio's own id in its dialect;
    /// with MDES the network names the token by its reference (Mastercard's token unique
    /// reference), which Provisio keeps as `network_token_ref`.
    func token(_ card: Components.Schemas.Card, issuerTokenID: String) async throws -> Components.Schemas.Token? {
        try await world.tokens(cardID: card.id).first { $0.id == issuerTokenID || $0.networkTokenRef == issuerTokenID }
    }

    /// What an issuer and Google exchange once, out of band: Provisio encrypts Google opaque
    /// payment cards to Google's keys, and Google accepts the issuer's signing key. Idempotent.
    func exchangeGoogleKeys() async -> Bool {
        do {
            let wallet = try await google.wallet()
            let settings = try await world.issuer.setGooglePaySettings(
                body: .json(.init(googleEncryptionKeys: wallet.encryptionKeys))
            ).ok.body.json
            let registered = try await google.registerIssuerKey(armored: settings.issuerSigningKey.armored)
            let ready =
                !wallet.encryptionKeys.isEmpty && registered.issuerKeyFingerprints.contains(settings.issuerSigningKey.fingerprint)
            if wallet.issuerKeyFingerprints != registered.issuerKeyFingerprints || !ready {
                await transcript.check(
                    ready,
                    "keys exchanged: Provisio encrypts to Google's key, Google accepts the issuer's signing key "
                        + String(settings.issuerSigningKey.fingerprint.suffix(16)))
            }
            return ready
        } catch let error as ProvisioError {
            await transcript.fail("Google Wallet refused the keys: \(error.code): \(error.message)")
            return false
        } catch {
            await transcript.fail("Provisio refused the Google Pay keys: \(DemoAPI.code(of: error))")
            return false
        }
    }

    /// Unified Push Provisioning: Google's `GeneratePaymentCredentialsRequest`, the app's
    /// backend call (Provisio's mobile `google-pay` route), Google's result. Nil after a ✗.
    func googlePush(_ card: Components.Schemas.Card, mobileToken: String) async -> Google.PushTokenizeResult? {
        do {
            let session = try await google.beginPush(
                .init(
                    network: .visa, tokenServiceProvider: .tokenProviderVisa, displayName: card.productTitle ?? "Card",
                    lastDigits: card.last4))
            let request = session.credentialsRequest
            await transcript.check(
                request.googleOpaquePaymentCardRequested,
                "pushTokenize: Google asks the app's generator for credentials "
                    + "(server session \(request.serverSessionId.prefix(12))…)")
            let push = try await world.api.client(mobileToken).provisionGooglePayFromMobile(
                path: .init(id: card.id),
                body: .json(
                    .init(
                        credentialsRequest: .init(
                            serverSessionId: request.serverSessionId, stableHardwareId: request.stableHardwareId,
                            walletId: request.walletId, tokenRequestorId: request.tokenRequestorId,
                            googleOpaquePaymentCardRequested: request.googleOpaquePaymentCardRequested)))
            ).ok.body.json
            await transcript.check(
                push.googleOpaquePaymentCard != nil && push.lastDigits == card.last4,
                "Provisio answered the TSP opaque payment card and the OpenPGP-signed, encrypted Google one")
            return try await google.completePush(
                sessionID: session.id,
                credentials: .init(
                    opaquePaymentCard: push.opaquePaymentCard, googleOpaquePaymentCard: push.googleOpaquePaymentCard))
        } catch let error as ProvisioError {
            await transcript.fail("Google Wallet refused the push: \(error.code): \(error.message)")
        } catch {
            await transcript.fail("the push failed: \(DemoAPI.code(of: error))")
        }
        return nil
    }
}
