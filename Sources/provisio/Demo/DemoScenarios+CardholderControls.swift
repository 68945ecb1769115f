import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox

/// What the cardholder and the issuer do to a card already in Wallet: the cardholder's own
/// controls from the issuer's app (a lost phone's token suspended, then resumed), activation by
/// the app's own authentication of the cardholder, and the issuer locking and unlocking the card.
extension DemoScenarios {
    // MARK: 15

    func cardholderSuspendsALostPhone() async throws {
        let card = try await world.createCard(
            customer: "dana", pan: "4000000000000002", name: "Dana Devices", title: "Demo Visa Everyday")
        let session = try await world.mobileSession(customer: "dana")
        var serials: [Components.Schemas.DeviceType: String] = [:]
        for kind in [SandboxClient.DeviceKind.phone, .watch] {
            let (_, result) = try await world.add(card: card, on: kind, mobileToken: session)
            guard case .success(let outcome) = result, let pass = outcome.pass else {
                await transcript.fail("the add to the \(kind.rawValue) failed: \(Self.describe(result))")
                return
            }
            serials[kind == .phone ? .phone : .watch] = pass.serialNumber
        }
        let app = world.api.client(session)
        let listed = try await app.listMobileTokens().ok.body.json.data
        await transcript.check(
            Set(listed.compactMap(\.deviceType)) == [.phone, .watch] && listed.allSatisfy { $0.cardLast4 == card.last4 },
            "the app lists dana's card on her devices: "
                + listed.map { "\($0.wallet.rawValue) on the \($0.deviceType?.rawValue ?? "device"), \($0.state.rawValue)" }
                .joined(separator: "; "))
        guard let phone = listed.first(where: { $0.deviceType == .phone }), let serial = serials[.phone] else {
            await transcript.fail("no iPhone token to suspend")
            return
        }
        for (action, state, event, passState) in [
            (
                Components.Schemas.MobileTokenTransitionRequest.ActionPayload.suspend, Components.Schemas.TokenState.suspended,
                "token.suspended", SandboxClient.PassActivationState.suspended
            ),
            (.resume, .active, "token.resumed", .activated),
        ] {
            let changed = try? await app.transitionMobileToken(path: .init(id: phone.id), body: .json(.init(action: action)))
                .ok.body.json
            let received = await world.receiver.waitFor(event, tokenID: phone.id)
            let pass = try await world.pass(serialNumber: serial)
            await transcript.check(
                changed?.state == state && pass?.activationState == passState && received != nil,
                "dana \(action == .suspend ? "suspends her lost iPhone's card from the app" : "found it: she resumes it")"
                    + " → \(state.rawValue) at the network, pass \(pass?.activationState.rawValue ?? "gone"); \(event) received")
        }
        let watchPass = try await world.pass(serialNumber: serials[.watch] ?? "")
        await transcript.check(watchPass?.activationState == .activated, "the Watch's card was never touched: still active")
        // Another customer's session cannot reach dana's token.
        let stranger = try await world.mobileSession(customer: "alice")
        do {
            _ = try await world.api.client(stranger).transitionMobileToken(
                path: .init(id: phone.id), body: .json(.init(action: .suspend))
            ).ok
            await transcript.fail("another customer's session suspended dana's token")
        } catch {
            let refusal = Self.refusal(error)
            await transcript.check(
                refusal?.httpStatus == 404 && refusal?.code.rawValue == "token_not_found",
                "another customer's app cannot touch it (404 token_not_found, as for an unknown token)")
        }
    }

    // MARK: 16

    func activationByInAppAuthentication() async throws {
        let (card, _, result) = try await addNewCard(
            customer: "erin", pan: "5454545454545454", name: "Erin Enrolled", title: "Demo Mastercard Plus",
            risk: SandboxClient.Risk(deviceScore: 5, accountScore: 5, walletRecommendation: .requireVerification))
        guard case .success(let outcome) = result, let pass = outcome.pass else {
            await transcript.fail("the add failed: \(Self.describe(result))")
            return
        }
        await transcript.check(
            pass.activationState == .requiresActivation, "Provisio decided yellow; the pass on the iPhone requires activation")
        let session = try await world.mobileSession(customer: "erin")
        let app = world.api.client(session)
        guard let pending = try await app.listMobileTokens().ok.body.json.data.first(where: { $0.state == .pendingVerification })
        else {
            await transcript.fail("the app sees no pending token")
            return
        }
        // The issuer's app has signed erin in itself; she confirms the card by its last four digits.
        await transcript.check(
            pending.cardLast4 == card.last4,
            "erin is signed in to the app, which asks: activate the card ending \(pending.cardLast4) on this iPhone? yes")
        let activated = try? await app.activateMobileToken(
            path: .init(id: pending.id), body: .json(.init(method: .appAuthentication))
        ).ok.body.json
        let received = await world.receiver.waitFor("token.activated", tokenID: pending.id)
        let after = try await world.pass(serialNumber: pass.serialNumber)
        await transcript.check(
            activated?.state == .active && after?.activationState == .activated && received != nil,
            "the app asked Provisio, Provisio asked the network: the token is active, the pass activated; "
                + "token.activated received")
        let history = try await world.issuer.getToken(path: .init(id: pending.id)).ok.body.json.events ?? []
        await transcript.check(
            history.last?.reasonCode == "app_authentication" && history.last?.actor == .issuer,
            "recorded as activation by the issuer's app (app_authentication), not TAV nor customer service")
    }

    // MARK: 17

    func lockAndUnlock() async throws {
        guard let card = try await card(of: "dana") else {
            await transcript.fail("scenario 15 must run first (no card for dana)")
            return
        }
        let locked = try? await world.issuer.lockCard(path: .init(id: card.id)).ok.body.json
        let suspended = locked?.tokenUpdates?.filter { $0.outcome == .suspended }.count ?? 0
        let passes =
            try await sandbox.passes(on: .phone, primaryAccountIdentifier: card.primaryAccountIdentifier)
            + sandbox.passes(on: .watch, primaryAccountIdentifier: card.primaryAccountIdentifier)
        await transcript.check(
            locked?.status == .locked && suspended == 2 && passes.allSatisfy { $0.activationState == .suspended },
            "the issuer locks dana's card: \(suspended) tokens suspended at the network, both passes suspended")
        // dana's app tries to add the card to another wallet meanwhile.
        let session = try await world.mobileSession(customer: "dana")
        do {
            _ = try await world.api.client(session).provisionGooglePayFromMobile(path: .init(id: card.id), body: .json(.init()))
                .ok
            await transcript.fail("a locked card was provisioned")
        } catch {
            let refusal = Self.refusal(error)
            await transcript.check(
                refusal?.httpStatus == 409 && refusal?.code.rawValue == "card_locked",
                "an add to Google Pay while it is locked is refused (409 card_locked)")
        }
        let unlocked = try? await world.issuer.unlockCard(path: .init(id: card.id)).ok.body.json
        let resumed = unlocked?.tokenUpdates?.filter { $0.outcome == .resumed }.count ?? 0
        let after =
            try await sandbox.passes(on: .phone, primaryAccountIdentifier: card.primaryAccountIdentifier)
            + sandbox.passes(on: .watch, primaryAccountIdentifier: card.primaryAccountIdentifier)
        await transcript.check(
            unlocked?.status == .active && resumed == 2 && after.allSatisfy { $0.activationState == .activated },
            "unlocked: the \(resumed) tokens the lock suspended are resumed, both passes active again")
    }
}
