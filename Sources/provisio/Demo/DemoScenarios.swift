import Foundation
import OpenAPIRuntime
import ProvisioAPI
import ProvisioClient
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox

/// The flows of DESIGN.md, played against the embedded server and the sandbox. Each scenario
/// records its steps in the transcript and never throws for an expected refusal: a wrong
/// outcome is a ✗, not a crash.
struct DemoScenarios {
    let world: DemoWorld
    let transcript: DemoTranscript

    /// Scenarios that need pieces not built yet, with what they wait for.
    static let pending: [Int: String] = [:]

    static let titles: [Int: String] = [
        1: "Green path: in-app add to the iPhone",
        2: "Add-button decision afterwards, then the add to the Watch",
        3: "Wallet-extension flow: status, sign-in, entries per device, generate",
        4: "Yellow path with in-app verification (TAV)",
        5: "Yellow path with a one-time code through the issuer's webhook",
        6: "Yellow path with customer-service activation through the network",
        7: "Red path: declined, and why",
        8: "Lifecycle: suspend, resume, delete; a deletion by the network",
        9: "A support call in the console: find the token, activate it, audited",
        10: "Google Pay green path to an Android phone through Unified Push Provisioning",
        11: "Samsung Pay yellow path with a one-time code",
        12: "Google Pay activation from the issuer's app (app-to-app)",
        13: "The cardholder deletes the card in Google Wallet",
        14: "The issuer suspends and resumes a Samsung Pay token",
        15: "The cardholder suspends a lost iPhone's card from the app, then resumes it",
        16: "Activation by the issuer's app after its own authentication of the cardholder",
        17: "The issuer locks the card (its tokens suspended, no new add), then unlocks it",
        18: "A Watch add offered no app-to-app",
        19: "A code sent to a masked email chosen before sending",
        20: "A card replaced with a new number while its passes stay",
        21: "A card product: its terms before the add, its name and art, its app, a change",
    ]

    /// What a scenario builds on: the scenarios that add the cards and tokens it uses.
    static let prerequisites: [Int: [Int]] = [2: [1], 8: [1, 2], 13: [10], 14: [11], 17: [15]]

    func run(_ number: Int) async throws {
        switch number {
        case 1: try await green()
        case 2: try await addButtonThenWatch()
        case 3: try await walletExtension()
        case 4: try await yellowInApp()
        case 5: try await yellowOTP()
        case 6: try await yellowCustomerService()
        case 7: try await red()
        case 8: try await lifecycle()
        case 9: try await supportConsole()
        case 10: try await googleGreenUPP()
        case 11: try await samsungYellowOTP()
        case 12: try await googleAppToApp()
        case 13: try await googleCardholderDeletes()
        case 14: try await samsungIssuerSuspends()
        case 15: try await cardholderSuspendsALostPhone()
        case 16: try await activationByInAppAuthentication()
        case 17: try await lockAndUnlock()
        case 18: try await watchAddOfferedNoAppToApp()
        case 19: try await codeToAMaskedEmailChosenBeforeSending()
        case 20: try await replacedCardKeepsItsPasses()
        case 21: try await cardProduct()
        default: break
        }
    }

    var sandbox: SandboxClient { world.sandbox }

    // MARK: 1

    func green() async throws {
        let card = try await world.createCard(
            customer: "alice", pan: "4111111111111111", name: "Alice Appleseed", title: "Demo Visa")
        // The answer's type has no PAN field, and decoding it refused any field it does not declare.
        await transcript.check(
            !Mirror(reflecting: card).children.contains { $0.label == "pan" },
            "card •••• \(card.last4) created for alice (the PAN never comes back)")
        let session = try await world.mobileSession(customer: "alice")
        let (_, result) = try await world.add(card: card, on: .phone, mobileToken: session)
        await transcript.pass("PassKit session on the iPhone: 16-byte nonce signed by the secure element, sandbox chain")
        guard case .success(let outcome) = result else {
            await transcript.fail("the add to the iPhone failed: \(Self.describe(result))")
            return
        }
        await transcript.check(
            outcome.pass?.primaryAccountNumberSuffix == "1111", "Apple's service opened the ECC_V2 payload and checked the nonce")
        await transcript.check(
            outcome.decision == .approve,
            "the network asked Provisio: \(outcome.decision.rawValue) (\(outcome.reasons.joined(separator: ", ")))")
        await transcript.check(outcome.pass?.activationState == .activated, "pass on the iPhone is activated")
        let token = try await world.tokens(cardID: card.id).first
        await transcript.check(token?.state == .active, "Provisio's token is active")
        let event = await world.receiver.waitFor("token.activated", tokenID: token?.id)
        await transcript.check(event != nil, "webhook token.activated received and its signature verified")
    }

    // MARK: 2

    func addButtonThenWatch() async throws {
        guard let card = try await card(of: "alice") else {
            await transcript.fail("scenario 1 must run first (no card for alice)")
            return
        }
        let identity = Self.identity(card)
        let before = AddCardDecider(library: try await DemoPassLibrary.snapshot(sandbox), issuerCards: [identity])
            .decision(for: identity)
        await transcript.check(
            !before.phone.canAdd && before.phone.reason == .alreadyOnThisDevice,
            "iPhone: no Add button (\(before.phone.reason.rawValue))")
        await transcript.check(before.watch.canAdd, "Watch: Add button shown (\(before.watch.reason.rawValue))")
        let session = try await world.mobileSession(customer: "alice")
        let (_, result) = try await world.add(card: card, on: .watch, mobileToken: session)
        guard case .success(let outcome) = result else {
            await transcript.fail("the add to the Watch failed: \(Self.describe(result))")
            return
        }
        await transcript.check(
            outcome.pass?.activationState == .activated && outcome.pass?.device == .watch, "pass on the Watch is activated")
        let tokens = try await world.tokens(cardID: card.id)
        await transcript.check(
            tokens.count == 2 && tokens.allSatisfy { $0.state == .active },
            "Provisio has two active tokens for the card (iPhone and Watch)")
        let after = AddCardDecider(library: try await DemoPassLibrary.snapshot(sandbox), issuerCards: [identity])
            .decision(for: identity)
        await transcript.check(!after.showsAddButton, "no Add button anywhere any more (Watch: \(after.watch.reason.rawValue))")
    }

    // MARK: 4

    func yellowInApp() async throws {
        let (card, _, result) = try await addNewCard(
            customer: "bob", pan: "5555555555554444", name: "Bob Builder", title: "Demo Mastercard",
            risk: SandboxClient.Risk(deviceScore: 5, accountScore: 5, walletRecommendation: .requireVerification))
        guard case .success(let outcome) = result, let pass = outcome.pass else {
            await transcript.fail("the add failed: \(Self.describe(result))")
            return
        }
        await transcript.check(
            outcome.decision == .requireVerification && pass.activationState == .requiresActivation,
            "Provisio decided yellow (\(outcome.reasons.joined(separator: ", "))); the pass requires activation "
                + "(methods: \(outcome.activationMethods.joined(separator: ", ")))")
        let link = URL(
            string: "demobank://wallet?passTypeIdentifier=paymentpass.com.apple&serialNumber=\(pass.serialNumber)&action=verify")!
        let parsed = try? WalletDeepLink(url: link)
        await transcript.check(parsed?.action == .verify, "Wallet opened the app: deep link parsed (action=verify)")
        let library = try await DemoPassLibrary.snapshot(sandbox)
        let found = parsed.flatMap { library.pass(for: $0) }
        await transcript.check(found?.serialNumber == pass.serialNumber, "the app found the pass by its serial number")
        let tokenID = try await world.issuerTokenID(of: outcome, cardID: card.id)
        let tav = try? await world.issuer.activateToken(
            path: .init(id: tokenID), body: .json(.init(mode: .tav))
        ).ok.body.json.activationData
        await transcript.check(tav != nil, "activation data (TAV) fetched from Provisio")
        do {
            _ = try await sandbox.verifyActivationData(networkTokenRef: outcome.networkTokenRef, activationData: tav ?? "")
            let activated = try await world.pass(serialNumber: pass.serialNumber)
            await transcript.check(
                activated?.activationState == .activated, "the network verified the TAV; the pass is activated")
        } catch let error as ProvisioError {
            await transcript.fail("the network refused the TAV: \(error.code)")
        }
        let token = try await world.tokens(cardID: card.id).first
        await transcript.check(token?.state == .active, "Provisio's token is active")
    }

    // MARK: 5

    func yellowOTP() async throws {
        let (card, _, result) = try await addNewCard(
            customer: "dave", pan: "6011111111111117", name: "Dave Discover", title: "Demo Discover",
            risk: SandboxClient.Risk(deviceScore: 2, accountScore: 5, walletRecommendation: .approve))
        guard case .success(let outcome) = result, let pass = outcome.pass else {
            await transcript.fail("the add failed: \(Self.describe(result))")
            return
        }
        await transcript.check(
            pass.activationState == .requiresActivation && outcome.activationMethods.contains("otp_sms"),
            "Provisio decided yellow (\(outcome.reasons.joined(separator: ", "))); the cardholder picks a one-time code")
        let challenge: SandboxClient.OTPChallenge
        do {
            challenge = try await sandbox.requestOTP(networkTokenRef: outcome.networkTokenRef)
        } catch let error as ProvisioError {
            await transcript.fail("the code could not be relayed: \(error.code)")
            return
        }
        let tokenID = try await world.issuerTokenID(of: outcome, cardID: card.id)
        let relayed = await world.receiver.waitFor("token.otp_requested", tokenID: tokenID)
        await transcript.check(
            relayed?.code?.count == 6 && relayed?.code == challenge.code,
            "the network's code reached the issuer as a signed token.otp_requested webhook")
        await transcript.check(
            challenge.channels.first.map {
                // MDES's channels are the ones Provisio offered it, masked from the wallet's data.
                world.network == .mdes ? $0.masked.hasSuffix("4821") : $0.masked == "+1 ••• ••• 4821"
            } == true,
            "the issuer answered where it sent it; Wallet shows: "
                + challenge.channels.map { "\($0._type) \($0.masked)" }.joined(separator: ", "))
        let wrong = challenge.code == "000000" ? "111111" : "000000"
        do {
            _ = try await sandbox.verifyOTP(networkTokenRef: outcome.networkTokenRef, code: wrong)
            await transcript.fail("a wrong code was accepted")
        } catch let error as ProvisioError {
            await transcript.check(error.code == .sandboxOTPInvalid, "a mistyped code is refused (\(error.code))")
        }
        do {
            _ = try await sandbox.verifyOTP(networkTokenRef: outcome.networkTokenRef, code: challenge.code)
            let activated = try await world.pass(serialNumber: pass.serialNumber)
            await transcript.check(activated?.activationState == .activated, "the right code activates the pass")
        } catch let error as ProvisioError {
            await transcript.fail("the right code was refused: \(error.code)")
        }
        let token = try await world.tokens(cardID: card.id).first
        await transcript.check(
            token?.state == .active && token?.networkState == (world.network == .mdes ? "ACTIVE" : "otp_verified"),
            "Provisio's token is active")
    }

    // MARK: 6

    func yellowCustomerService() async throws {
        let (card, _, result) = try await addNewCard(
            customer: "frank", pan: "4000056655665556", name: "Frank Caller", title: "Demo Visa Debit",
            risk: SandboxClient.Risk(deviceScore: 5, accountScore: 2, walletRecommendation: .approve))
        guard case .success(let outcome) = result, let pass = outcome.pass else {
            await transcript.fail("the add failed: \(Self.describe(result))")
            return
        }
        await transcript.check(
            pass.activationState == .requiresActivation && outcome.activationMethods.contains("customer_service"),
            "Provisio decided yellow (\(outcome.reasons.joined(separator: ", "))); the cardholder calls the bank")
        let tokenID = try await world.issuerTokenID(of: outcome, cardID: card.id)
        let activated: String
        do {
            activated =
                try await world.issuer.activateToken(
                    path: .init(id: tokenID),
                    body: .json(.init(mode: .customerService, reasonCode: "agent_verified_identity"))
                ).ok.body.json.state?.rawValue ?? "no state"
        } catch {
            activated = DemoAPI.code(of: error)
        }
        await transcript.check(
            activated == "active",
            "the agent verified the caller; Provisio asked the network to activate the token → \(activated)")
        let onDevice = try await world.pass(serialNumber: pass.serialNumber)
        await transcript.check(onDevice?.activationState == .activated, "the network activated the pass on the iPhone")
        let event = await world.receiver.waitFor("token.activated", tokenID: tokenID)
        await transcript.check(event != nil, "webhook token.activated received")
    }

    // MARK: 7

    func red() async throws {
        let (card, addSession, result) = try await addNewCard(
            customer: "carol", pan: "378282246310005", name: "Carol Risk", title: "Demo Amex",
            risk: SandboxClient.Risk(deviceScore: 1, accountScore: 4, walletRecommendation: .approve))
        if case .failure(let error) = result {
            await transcript.check(error.code == .sandboxNetworkDeclined, "the add was declined: \(error.message)")
        } else {
            await transcript.fail("the add was expected to be declined")
        }
        let outcome = try? await sandbox.outcome(sessionID: addSession.id)
        await transcript.check(outcome != nil && outcome?.pass == nil, "no pass on the iPhone")
        let token = try await world.tokens(cardID: card.id).first
        await transcript.check(
            token?.state == .declined,
            "Provisio's token is declined; reasons: \(token?.decisionReasons.joined(separator: ", ") ?? "none")")
        let event = await world.receiver.waitFor("provisioning.declined", tokenID: token?.id)
        await transcript.check(event != nil, "webhook provisioning.declined received")
    }

    // MARK: 8

    func lifecycle() async throws {
        guard let card = try await card(of: "alice") else {
            await transcript.fail("scenario 1 must run first (no card for alice)")
            return
        }
        let tokens = try await world.tokens(cardID: card.id)
        guard let tokenID = tokens.first(where: { $0.deviceType == .phone })?.id,
            let phonePass = try await sandbox.passes(on: .phone, primaryAccountIdentifier: card.primaryAccountIdentifier).first
        else {
            await transcript.fail("scenario 1 must run first (no iPhone token for alice)")
            return
        }
        let steps:
            [(
                Components.Schemas.TokenTransitionRequest.ActionPayload, Components.Schemas.TokenState, String,
                SandboxClient.PassActivationState
            )] = [(.suspend, .suspended, "token.suspended", .suspended), (.resume, .active, "token.resumed", .activated)]
        for (action, state, event, passState) in steps {
            let answer = try? await transition(tokenID, action, reasonCode: "demo_\(action.rawValue)")
            let received = await world.receiver.waitFor(event, tokenID: tokenID)
            let pass = try await world.pass(serialNumber: phonePass.serialNumber)
            await transcript.check(
                answer?.state == state && received != nil && pass?.activationState == passState,
                "issuer \(action.rawValue)s the token → \(state.rawValue) at the network, pass "
                    + "\(pass?.activationState.rawValue ?? "gone"); \(event) received")
        }
        do {
            _ = try await transition(tokenID, .resume)
            await transcript.fail("resuming an active token was accepted")
        } catch {
            let refusal = Self.refusal(error)
            await transcript.check(
                refusal?.httpStatus == 409 && refusal?.code.rawValue == "token_invalid_transition",
                "resuming an active token is refused (409)")
        }
        let deleted = try? await transition(tokenID, .delete)
        let deletedEvent = await world.receiver.waitFor("token.deleted", tokenID: tokenID)
        let gone = try await world.pass(serialNumber: phonePass.serialNumber)
        await transcript.check(
            deleted?.state == .deleted && deletedEvent != nil && gone == nil,
            "issuer deletes it: the pass leaves the iPhone; token.deleted received")

        guard let watchToken = tokens.first(where: { $0.deviceType == .watch }) else {
            await transcript.fail("no Watch token to remove (scenario 2 must run first)")
            return
        }
        _ = try await sandbox.report(event: .removedFromWallet, networkTokenRef: watchToken.networkTokenRef)
        let removed = await world.receiver.waitFor("token.deleted", tokenID: watchToken.id)
        let after = try await world.tokens(cardID: card.id).first { $0.id == watchToken.id }
        await transcript.check(
            after?.state == .deleted
                && after?.networkState == (world.network == .mdes ? "DEACTIVATED" : "removed_from_wallet") && removed != nil,
            "the cardholder removed the pass from the Watch: the network told Provisio, token deleted, webhook received")
    }

    // MARK: Helpers

    /// A new customer's card, added in the app to the iPhone while the network reports `risk`
    /// for it.
    func addNewCard(customer: String, pan: String, name: String, title: String, risk: SandboxClient.Risk)
        async throws -> (Components.Schemas.Card, SandboxClient.AddSession, Result<SandboxClient.Outcome, ProvisioError>)
    {
        let card = try await world.createCard(customer: customer, pan: pan, name: name, title: title)
        var risk = risk
        risk.last4 = String(pan.suffix(4))
        _ = try await sandbox.setRisk(risk)
        let session = try await world.mobileSession(customer: customer)
        let (addSession, result) = try await world.add(card: card, on: .phone, mobileToken: session)
        return (card, addSession, result)
    }

    /// The issuer's webhook endpoint, registered before any scenario runs.
    func registerWebhooks() async throws {
        let secret = try await webhookEndpoint()
        await transcript.check(!secret.isEmpty, "webhook endpoint registered for every event (signing secret shown once)")
    }

    private func webhookEndpoint() async throws -> String {
        let secret =
            (try? await world.issuer.createWebhookEndpoint(body: .json(.init(url: world.receiver.url, events: [._ast_])))
                .created.body.json.secret) ?? ""
        if !secret.isEmpty { try world.receiver.trust(secret: secret) }
        return secret
    }

    func card(of customer: String) async throws -> Components.Schemas.Card? {
        try await world.issuer.listCards(query: .init(customerRef: world.customer(customer))).ok.body.json.data.first
    }

    private func transition(
        _ tokenID: String, _ action: Components.Schemas.TokenTransitionRequest.ActionPayload, reasonCode: String? = nil
    ) async throws -> Components.Schemas.Token {
        try await world.issuer.transitionToken(
            path: .init(id: tokenID), body: .json(.init(action: action, reasonCode: reasonCode))
        ).ok.body.json
    }

    /// The server's refusal inside a failed call, if it answered with one.
    static func refusal(_ error: any Error) -> ProvisioClientError? {
        (error as? ClientError)?.underlyingError as? ProvisioClientError ?? error as? ProvisioClientError
    }

    static func identity(_ card: Components.Schemas.Card) -> CardIdentity {
        CardIdentity(primaryAccountIdentifier: card.primaryAccountIdentifier, last4: card.last4)
    }

    static func describe<T>(_ result: Result<T, ProvisioError>) -> String {
        if case .failure(let error) = result { return "\(error.code): \(error.message)" }
        return "ok"
    }
}
