import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox

/// Samsung Pay on an Android phone: the yellow path with a one-time code, and the issuer
/// suspending and resuming the token — the issuer's app and backend played over Provisio's
/// API, Samsung Wallet over the sandbox's (docs/samsung-wallet.md says what of Samsung's
/// behaviour is modelled from which public page).
extension DemoScenarios {
    typealias Samsung = SandboxClient.SamsungWallet

    var samsung: Samsung { sandbox.samsungWallet }

    /// The issuer app's `PartnerInfo`: its service id from the Samsung Pay portal, for
    /// app-to-app push provisioning.
    static let samsungPartner = Samsung.PartnerInfo(
        serviceId: "demo-bank-samsung-pay", serviceType: .app2app, issuerName: "Demo Bank")

    // MARK: 11

    func samsungYellowOTP() async throws {
        let partner = Self.samsungPartner
        let card = try await world.createCard(
            customer: "sam", pan: "5200828282828210", name: "Sam Galaxy", title: "Demo Mastercard for Samsung")
        // The network scores the device low: the issuer asks for a one-time code.
        _ = try await sandbox.setRisk(
            SandboxClient.Risk(last4: card.last4, deviceScore: 2, accountScore: 5, walletRecommendation: .approve))
        do {
            let status = try await samsung.getSamsungPayStatus(on: .phone, partner: partner)
            await transcript.check(status.status == .spayReady, "getSamsungPayStatus: \(status.status.rawValue)")
            let info = try await samsung.getWalletInfo(on: .phone, partner: partner)
            let listed = try await samsung.getAllCards(on: .phone, partner: partner).contains { $0.last4Fpan == card.last4 }
            await transcript.check(
                !listed, "getAllCards: the card is not in Samsung Wallet; the app shows \"Add to Samsung Pay\"")
            let session = try await world.mobileSession(customer: "sam")
            let push = try await world.api.client(session).provisionSamsungPayFromMobile(
                path: .init(id: card.id), body: .json(.init(deviceId: info.deviceId, walletUserId: info.walletUserId))
            ).ok.body.json
            await transcript.check(
                push.tokenizationProvider == .mc && Data(base64Encoded: push.provisionPayload) != nil,
                "Provisio answered addCard's data: \(push.cardType.rawValue), provider \(push.tokenizationProvider.rawValue), "
                    + "a Base64 provisioning payload only the network can open")
            guard let cardType = Samsung.CardType(rawValue: push.cardType.rawValue),
                let provider = Samsung.TokenizationProvider(rawValue: push.tokenizationProvider.rawValue)
            else {
                await transcript.fail("Provisio's card type or provider is not a Samsung Pay SDK word")
                return
            }
            let added = try await samsung.addCard(
                on: .phone, partner: partner, cardType: cardType, tokenizationProvider: provider,
                provisionPayload: push.provisionPayload)
            let methods = try await samsung.verificationMethods(cardID: added.cardId)
            await transcript.check(
                added.cardStatus == .pendingActivation && methods.contains(.otpSms),
                "addCard: \(added.cardStatus.rawValue); Samsung Wallet offers "
                    + methods.map(\.rawValue).joined(separator: ", "))
            let token = try await world.tokens(cardID: card.id).first { $0.wallet == .samsungPay }
            let challenge = try await samsung.requestOneTimeCode(cardID: added.cardId)
            let relayed = await world.receiver.waitFor("token.otp_requested", tokenID: token?.id)
            await transcript.check(
                relayed?.code == challenge.code,
                "the network's code reached the issuer as a signed token.otp_requested webhook; Samsung Wallet shows "
                    + challenge.channels.map { "\($0._type) \($0.masked)" }.joined(separator: ", "))
            let activated = try await samsung.submitOneTimeCode(challenge.code, cardID: added.cardId)
            await transcript.check(
                activated.cardStatus == .active, "the cardholder typed the code: the card is \(activated.cardStatus.rawValue)")
        } catch let error as ProvisioError {
            await transcript.fail("Samsung Wallet refused: \(error.code): \(error.message)")
            return
        } catch {
            await transcript.fail("Provisio refused the Samsung Pay data: \(DemoAPI.code(of: error))")
            return
        }
        let token = try await world.tokens(cardID: card.id).first { $0.wallet == .samsungPay }
        await transcript.check(
            token?.state == .active && token?.deviceType == .phone,
            "Provisio's token is \(token?.state.rawValue ?? "missing"), for samsung_pay on a phone")
    }

    // MARK: 14

    func samsungIssuerSuspends() async throws {
        guard let card = try await card(of: "sam"),
            let token = try await world.tokens(cardID: card.id).first(where: { $0.wallet == .samsungPay && $0.state == .active })
        else {
            await transcript.fail("scenario 11 must run first (no active Samsung Pay token for sam)")
            return
        }
        let steps: [(Components.Schemas.TokenTransitionRequest.ActionPayload, String, Samsung.CardState)] = [
            (.suspend, "token.suspended", .suspended), (.resume, "token.resumed", .active),
        ]
        for (action, event, expected) in steps {
            do {
                let answer = try await world.issuer.transitionToken(
                    path: .init(id: token.id), body: .json(.init(action: action, reasonCode: "demo_\(action.rawValue)"))
                ).ok.body.json
                let received = await world.receiver.waitFor(event, tokenID: token.id)
                let inWallet = try await samsung.getAllCards(on: .phone, partner: Self.samsungPartner)
                    .first { $0.last4Fpan == card.last4 && $0.cardStatus != .disposed }
                await transcript.check(
                    inWallet?.cardStatus == expected && received != nil,
                    "issuer \(action.rawValue)s the token → \(answer.state.rawValue) at Provisio and the network; "
                        + "getAllCards shows \(inWallet?.cardStatus.rawValue ?? "no card"); \(event) received")
            } catch let error as ProvisioError {
                await transcript.fail("Samsung Wallet's card list could not be read: \(error.code)")
            } catch {
                await transcript.fail("the issuer's \(action.rawValue) was refused: \(DemoAPI.code(of: error))")
            }
        }
    }
}
