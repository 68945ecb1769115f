import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox

/// Issue 25: the cardholder's phone and email on the card (sealed; only masked forms leave),
/// the activation methods offered per device, and a one-time code by the channel the
/// cardholder chose, seeing where it would go before it was sent.
extension DemoScenarios {
    static let contactsEmail = "gina.contacts@example.com"

    // MARK: 18

    func watchAddOfferedNoAppToApp() async throws {
        let (card, _, result) = try await addNewCard(
            customer: "gina", pan: "4000000000009995", name: "Gina Watch", title: "Demo Visa Contacts",
            risk: SandboxClient.Risk(deviceScore: 5, accountScore: 2, walletRecommendation: .approve))
        guard case .success(let phoneOutcome) = result else {
            await transcript.fail("the iPhone add failed: \(Self.describe(result))")
            return
        }
        await transcript.check(
            phoneOutcome.activationMethods.contains("app_to_app"), "on the iPhone the issuer's app is offered (yellow)")
        let updated = try? await world.issuer.updateCard(
            path: .init(id: card.id), body: .json(.init(cardholderPhone: "+14155550123", cardholderEmail: Self.contactsEmail))
        ).ok.body.json
        await transcript.check(
            updated?.cardholderPhoneMasked == "+•• ••• ••• 0123" && updated?.cardholderEmailMasked == "g•••@example.com",
            "the issuer gives gina's phone and email; the card answers them masked only: "
                + "\(updated?.cardholderPhoneMasked ?? "none"), \(updated?.cardholderEmailMasked ?? "none")")
        let session = try await world.mobileSession(customer: "gina")
        let (_, watchResult) = try await world.add(card: card, on: .watch, mobileToken: session)
        guard case .success(let outcome) = watchResult, let pass = outcome.pass else {
            await transcript.fail("the Watch add failed: \(Self.describe(watchResult))")
            return
        }
        let offers = outcome.activationOffers ?? []
        await transcript.check(
            pass.activationState == .requiresActivation && !outcome.activationMethods.contains("app_to_app")
                && !offers.contains { $0.method == "app_to_app" },
            "the Watch add is yellow and offered no app-to-app (a Watch cannot open the app): "
                + outcome.activationMethods.joined(separator: ", "))
        let sms = offers.first { $0.method == "otp_sms" }?.contact
        let email = offers.first { $0.method == "otp_email" }?.contact
        await transcript.check(
            sms?.hasSuffix("0123") == true && email.map { !$0.contains("gina.contacts") && $0.hasSuffix("@example.com") } == true,
            "Wallet shows each code's destination masked: SMS \(sms ?? "none"), email \(email ?? "none")")
    }

    // MARK: 19

    func codeToAMaskedEmailChosenBeforeSending() async throws {
        let card = try await world.createCard(
            customer: "hugo", pan: "4000002500003155", name: "Hugo Email", title: "Demo Visa Email")
        _ = try await world.issuer.updateCard(
            path: .init(id: card.id), body: .json(.init(cardholderEmail: "hugo.email@example.com"))
        ).ok
        var risk = SandboxClient.Risk(deviceScore: 5, accountScore: 2, walletRecommendation: .approve)
        risk.last4 = String(card.last4)
        _ = try await sandbox.setRisk(risk)
        let session = try await world.mobileSession(customer: "hugo")
        let (_, result) = try await world.add(card: card, on: .phone, mobileToken: session)
        guard case .success(let outcome) = result, outcome.pass != nil else {
            await transcript.fail("the add failed: \(Self.describe(result))")
            return
        }
        let tokenID = try await world.issuerTokenID(of: outcome, cardID: card.id)
        let shown = outcome.activationOffers?.first { $0.method == "otp_email" }?.contact
        await transcript.check(
            shown != nil && shown?.contains("hugo.email") == false
                && world.receiver.received.contains { $0.type == "token.otp_requested" && $0.tokenID == tokenID } == false,
            "before any code is sent, Wallet shows the masked email it would go to: \(shown ?? "none")")
        let challenge: SandboxClient.OTPChallenge
        do {
            challenge = try await sandbox.requestOTP(networkTokenRef: outcome.networkTokenRef, channel: .email)
        } catch let error as ProvisioError {
            await transcript.fail("the code by email could not be sent: \(error.code)")
            return
        }
        let relayed = await world.receiver.waitFor("token.otp_requested", tokenID: tokenID)
        await transcript.check(
            relayed?.channel == "email" && relayed?.destinationMasked == "h•••@example.com" && relayed?.challengeID != nil,
            "hugo chose email: the issuer's webhook names the channel, the challenge and the masked address "
                + "\(relayed?.destinationMasked ?? "none"), never the address itself")
        await transcript.check(
            challenge.channels.contains { $0._type == "email" },
            "Wallet shows where the code went: " + challenge.channels.map { "\($0._type) \($0.masked)" }.joined(separator: ", "))
        do {
            _ = try await sandbox.verifyOTP(networkTokenRef: outcome.networkTokenRef, code: challenge.code)
            let token = try await world.tokens(cardID: card.id).first
            await transcript.check(token?.state == .active, "the code from the email activates the token")
        } catch let error as ProvisioError {
            await transcript.fail("the right code was refused: \(error.code)")
        }
    }
}
