import Foundation
import ProvisioCore
import ProvisioSandbox
import Testing

/// A card product on the sandbox's side: the issuer's decision carries its profile, the network
/// keeps it on the token and Wallet on the pass (name as title, art), only the product's apps see
/// the pass, Wallet opens the product's link for it, an add waits for the product's terms, and a
/// product change reaches the token and its pass.
@Suite struct SandboxCardProductTests {
    static let bankApp = "A1B2C3D4E5.com.demobank.app"
    static let otherApp = "Z9Y8X7W6V5.com.someone.else"

    /// The bank's everyday product, with its app, support and art; terms only when asked for.
    static func profile(terms: String? = nil) -> SandboxCardProfile {
        SandboxCardProfile(
            productID: "prod_everyday", name: "Demo Visa Everyday", appLaunchURL: "demobank://wallet",
            associatedApplicationIdentifiers: [bankApp], associatedStoreIdentifiers: [1_234_567_890],
            contactName: "Demo Bank", supportPhone: "+44 20 7946 0000", supportEmail: "help@bank.example",
            supportURL: "https://bank.example/help", termsURL: terms.map { "https://bank.example/terms/\($0)" },
            termsVersion: terms, cardArtURL: "https://bank.example/art/everyday.png")
    }

    /// Apple's service and the network over the harness's wallet, asking `issuer`.
    struct World {
        let harness = Harness()
        let issuer: ProductIssuer
        let network: SandboxNetworkTokenService
        let apple: SandboxAppleProvisioningService
        var wallet: SandboxWallet { harness.wallet }

        init(profile: SandboxCardProfile?, outcome: DecisionOutcome = .approve) {
            let issuer = ProductIssuer(profile: profile, outcome: outcome)
            self.issuer = issuer
            self.network = SandboxNetworkTokenService(
                wallet: harness.wallet, issuer: issuer, issuerTAVPublicKey: harness.issuer.tavKey.publicKey,
                clock: harness.clock)
            self.apple = SandboxAppleProvisioningService(wallet: harness.wallet, network: network)
        }

        /// The app's add on `kind`, answered by the issuer and handed to Apple; the session, and
        /// the error the add ended with (nil when Wallet made the pass).
        func add(on kind: SandboxDeviceKind = .phone, card: String = SandboxFixtures.primaryAccountIdentifier)
            async throws -> (AddPaymentPassSession, ProvisioError?)
        {
            let session = try await wallet.beginAdd(on: kind, scheme: .eccV2, primaryAccountIdentifier: card)
            let response = try harness.issuer.answer(session, at: harness.clock.now())
            do {
                _ = try await apple.submit(sessionID: session.id, response: response, scheme: .eccV2)
                return (session, nil)
            } catch let error as ProvisioError {
                return (session, error)
            }
        }

        func token(of session: AddPaymentPassSession) async throws -> NetworkToken {
            let outcome = try #require(await network.outcome(sessionID: session.id))
            return try #require(await network.token(networkTokenRef: outcome.networkTokenRef))
        }
    }

    static func code(_ body: () async throws -> some Any) async -> ProvisioError.Code? {
        do {
            _ = try await body()
            return nil
        } catch let error as ProvisioError {
            return error.code
        } catch {
            Issue.record("Expected a ProvisioError, got \(error)")
            return nil
        }
    }

    // MARK: - The profile on the token and the pass

    @Test func theDecisionsProfileIsOnTheTokenAndThePassWithItsNameAndArt() async throws {
        let world = World(profile: Self.profile())
        let (session, error) = try await world.add()
        #expect(error == nil)
        let pass = try #require(
            await world.wallet.pass(primaryAccountIdentifier: SandboxFixtures.primaryAccountIdentifier, on: .phone))
        #expect(pass.profile == Self.profile())
        #expect(pass.details.productTitle == "Demo Visa Everyday")
        #expect(pass.details.cardArtURL == "https://bank.example/art/everyday.png")
        #expect(pass.details.expiry == SandboxFixtures.expiry)
        #expect(pass.activationState == .activated)
        let token = try await world.token(of: session)
        #expect(token.profile == Self.profile() && token.passSerialNumber == pass.serialNumber)
        #expect(await world.network.outcome(sessionID: session.id)?.pass == pass)
    }

    @Test func aCardWithoutAProductAddsAsBeforeAndEveryAppSeesItsPass() async throws {
        let world = World(profile: nil)
        let (session, error) = try await world.add()
        #expect(error == nil)
        let pass = try #require(await world.wallet.passes(on: .phone).first)
        #expect(pass.profile == nil && pass.details.productTitle == nil && pass.details.cardArtURL == nil)
        #expect(try await world.token(of: session).profile == nil)
        #expect(await world.wallet.passes(visibleToApplication: Self.bankApp) == [pass])
        #expect(await world.wallet.passes(visibleToApplication: Self.otherApp) == [pass])
        #expect(pass.isVisible(toApplication: "any.app"))
    }

    // MARK: - Visibility

    @Test func onlyTheProductsAssociatedAppsSeeItsPasses() async throws {
        let world = World(profile: Self.profile())
        #expect(try await world.add(on: .phone).1 == nil)
        #expect(try await world.add(on: .watch).1 == nil)
        // A card without a product, added the old way: every app sees it.
        let plain = try await world.wallet.addPass(
            on: .phone, primaryAccountIdentifier: "card_plain", primaryAccountNumberSuffix: "1111",
            deviceAccountIdentifier: "dpan_plain")

        let bank = await world.wallet.passes(visibleToApplication: Self.bankApp)
        #expect(bank.count == 3)
        #expect(bank.map(\.deviceKind) == [.phone, .phone, .watch])
        #expect(await world.wallet.passes(visibleToApplication: Self.bankApp, on: .watch).count == 1)
        #expect(await world.wallet.passes(visibleToApplication: Self.otherApp) == [plain])
        // Application identifiers are compared exactly: another case, the bundle id alone, the
        // team id alone or an empty identifier is another app.
        for stranger in [Self.bankApp.lowercased(), "com.demobank.app", "A1B2C3D4E5", "", Self.bankApp + " "] {
            #expect(await world.wallet.passes(visibleToApplication: stranger) == [plain], "\(stranger)")
        }
    }

    // MARK: - The app link

    @Test func theAppLinkIsTheProductsURLWithThePassesIdentifiers() async throws {
        let world = World(profile: Self.profile())
        #expect(try await world.add().1 == nil)
        let pass = try #require(await world.wallet.passes(on: .phone).first)
        let link = try await world.wallet.appLaunchURL(serialNumber: pass.serialNumber)
        #expect(link == "demobank://wallet?passTypeIdentifier=paymentpass.com.apple&serialNumber=\(pass.serialNumber)")
        #expect(pass.appLaunchURL == link)
        // No verification to do: not Wallet's verify link.
        #expect(throws: ProvisioError.self) { try WalletDeepLink(url: URL(string: link)!) }

        // On the yellow path the link asks the app to verify, and the app's parser reads it.
        let yellow = World(profile: Self.profile(), outcome: .requireVerification)
        #expect(try await yellow.add(on: .watch).1 == nil)
        let pending = try #require(await yellow.wallet.passes(on: .watch).first)
        #expect(pending.activationState == .requiresActivation)
        let verify = try await yellow.wallet.appLaunchURL(serialNumber: pending.serialNumber, on: .watch)
        #expect(verify.hasSuffix("&action=verify"))
        let parsed = try WalletDeepLink(url: try #require(URL(string: verify)))
        #expect(parsed.serialNumber == pending.serialNumber && parsed.action == .verify)
    }

    @Test func theProductsOwnQueryAndFragmentStayAndValuesAreEncoded() async throws {
        var profile = Self.profile()
        profile.appLaunchURL = "https://bank.example/open?src=wallet#cards"
        let world = World(profile: profile)
        #expect(try await world.add().1 == nil)
        let serial = try #require(await world.wallet.passes(on: .phone).first?.serialNumber)
        #expect(
            try await world.wallet.appLaunchURL(serialNumber: serial)
                == "https://bank.example/open?src=wallet&passTypeIdentifier=paymentpass.com.apple&serialNumber=\(serial)#cards")

        profile.appLaunchURL = "demobank://wallet?"
        _ = try await world.network.updateCardProfile(
            profile, networkTokenRef: try await world.network.allTokens()[0].networkTokenRef)
        #expect(
            try await world.wallet.appLaunchURL(serialNumber: serial)
                == "demobank://wallet?passTypeIdentifier=paymentpass.com.apple&serialNumber=\(serial)")
    }

    @Test func aPassWithoutAProductOrWithoutALinkHasNoAppToOpen() async throws {
        let plain = World(profile: nil)
        #expect(try await plain.add().1 == nil)
        let serial = try #require(await plain.wallet.passes().first?.serialNumber)
        #expect(await Self.code { try await plain.wallet.appLaunchURL(serialNumber: serial) } == .sandboxAppLaunchUnavailable)

        var profile = Self.profile()
        profile.appLaunchURL = nil
        let noLink = World(profile: profile)
        #expect(try await noLink.add().1 == nil)
        let other = try #require(await noLink.wallet.passes().first?.serialNumber)
        #expect(await Self.code { try await noLink.wallet.appLaunchURL(serialNumber: other) } == .sandboxAppLaunchUnavailable)
        #expect(await Self.code { try await noLink.wallet.appLaunchURL(serialNumber: "nope") } == .sandboxPassUnknown)
    }

    // MARK: - Terms

    @Test func termsStopTheAddUntilExactlyThatVersionIsAccepted() async throws {
        let world = World(profile: Self.profile(terms: "2026-03"))
        let (session, error) = try await world.add()
        #expect(error?.code == .sandboxTermsNotAccepted)
        #expect(error?.message.contains("2026-03") == true)
        // The token exists (the issuer decided), the pass does not.
        #expect(await world.wallet.passes().isEmpty)
        let token = try await world.token(of: session)
        #expect(token.state == .active && token.passSerialNumber == nil)
        let waiting = try #require(await world.network.outcome(sessionID: session.id))
        #expect(waiting.pass == nil && waiting.decision == .approve)
        #expect(waiting.awaitingTerms == .init(version: "2026-03", url: "https://bank.example/terms/2026-03"))
        #expect(await world.network.awaitingTerms(sessionID: session.id)?.version == "2026-03")

        // Another version, or the same in another case or with a space, is refused; it still waits.
        for wrong in ["2026-02", "2026-03 ", "2026-3", ""] {
            #expect(
                await Self.code { try await world.network.acceptTerms(sessionID: session.id, version: wrong) }
                    == .sandboxTermsVersionMismatch, "\(wrong)")
        }
        #expect(await world.wallet.passes().isEmpty)

        let outcome = try await world.network.acceptTerms(sessionID: session.id, version: "2026-03")
        let pass = try #require(outcome.pass)
        #expect(outcome.awaitingTerms == nil)
        #expect(pass.activationState == .activated && pass.deviceKind == .phone)
        #expect(pass.profile == Self.profile(terms: "2026-03") && pass.details.productTitle == "Demo Visa Everyday")
        #expect(await world.wallet.passes() == [pass])
        #expect(try await world.token(of: session).passSerialNumber == pass.serialNumber)
        #expect(await world.network.outcome(sessionID: session.id)?.pass == pass)

        // Once: nothing waits any more, and an unknown session never waited.
        #expect(
            await Self.code { try await world.network.acceptTerms(sessionID: session.id, version: "2026-03") }
                == .sandboxTermsNotPending)
        #expect(
            await Self.code { try await world.network.acceptTerms(sessionID: "sbx_session_nope", version: "2026-03") }
                == .sandboxTermsNotPending)
        #expect(world.issuer.state.value.events.isEmpty)
    }

    @Test func theTermsAddMakesThePassInTheTokensStateWhenAccepted() async throws {
        // Yellow: the pass requires activation.
        let yellow = World(profile: Self.profile(terms: "v1"), outcome: .requireVerification)
        let (pending, refusal) = try await yellow.add(on: .watch)
        #expect(refusal?.code == .sandboxTermsNotAccepted)
        let pass = try #require(try await yellow.network.acceptTerms(sessionID: pending.id, version: "v1").pass)
        #expect(pass.activationState == .requiresActivation && pass.deviceKind == .watch)

        // Suspended by the issuer while Wallet showed the terms: a suspended pass.
        let green = World(profile: Self.profile(terms: "v1"))
        let (session, _) = try await green.add()
        let ref = try await green.token(of: session).networkTokenRef
        _ = try await green.network.applyIssuerAction(.suspend, networkTokenRef: ref)
        let suspended = try #require(try await green.network.acceptTerms(sessionID: session.id, version: "v1").pass)
        #expect(suspended.activationState == .suspended)

        // Deleted meanwhile: no pass, and nothing waits any more.
        let gone = World(profile: Self.profile(terms: "v1"))
        let (deleted, _) = try await gone.add()
        _ = try await gone.network.applyIssuerAction(.delete, networkTokenRef: try await gone.token(of: deleted).networkTokenRef)
        #expect(
            await Self.code { try await gone.network.acceptTerms(sessionID: deleted.id, version: "v1") }
                == .sandboxNetworkTokenStateInvalid)
        #expect(await gone.wallet.passes().isEmpty)
        #expect(
            await Self.code { try await gone.network.acceptTerms(sessionID: deleted.id, version: "v1") }
                == .sandboxTermsNotPending)
    }

    @Test func aTermsURLWithoutAVersionAsksForNothing() async throws {
        var profile = Self.profile()
        profile.termsURL = "https://bank.example/terms"
        #expect(profile.terms == nil)
        let world = World(profile: profile)
        #expect(try await world.add().1 == nil)
        #expect(await world.wallet.passes().count == 1)
    }

    // MARK: - A product change

    @Test func aProductChangeReplacesTheProfileOnTheTokenAndItsPass() async throws {
        let world = World(profile: Self.profile())
        let (session, _) = try await world.add()
        let ref = try await world.token(of: session).networkTokenRef
        let changed = SandboxCardProfile(
            productID: "prod_premium", name: "Demo Visa Premium", appLaunchURL: "demobank://premium",
            associatedApplicationIdentifiers: [Self.otherApp], cardArtURL: "https://bank.example/art/premium.png")

        let token = try await world.network.updateCardProfile(changed, networkTokenRef: ref)
        #expect(token.profile == changed)
        let pass = try #require(await world.wallet.passes().first)
        #expect(pass.profile == changed)
        #expect(pass.details.productTitle == "Demo Visa Premium")
        #expect(pass.details.cardArtURL == "https://bank.example/art/premium.png")
        #expect(pass.details.expiry == SandboxFixtures.expiry)
        // The apps that see it are the new product's, and so is the link.
        #expect(await world.wallet.passes(visibleToApplication: Self.bankApp).isEmpty)
        #expect(await world.wallet.passes(visibleToApplication: Self.otherApp) == [pass])
        #expect(try await world.wallet.appLaunchURL(serialNumber: pass.serialNumber).hasPrefix("demobank://premium?"))

        // A profile without art keeps the art the pass shows.
        var plainer = changed
        plainer.cardArtURL = nil
        _ = try await world.network.updateCardProfile(plainer, networkTokenRef: ref)
        #expect(await world.wallet.passes().first?.details.cardArtURL == "https://bank.example/art/premium.png")
        #expect(await world.wallet.passes().first?.profile == plainer)

        // A dead token takes no profile; an unknown one is unknown.
        _ = try await world.network.applyIssuerAction(.delete, networkTokenRef: ref)
        #expect(
            await Self.code { try await world.network.updateCardProfile(changed, networkTokenRef: ref) }
                == .sandboxNetworkTokenStateInvalid)
        #expect(
            await Self.code { try await world.network.updateCardProfile(changed, networkTokenRef: "sbx_ntr_nope") }
                == .sandboxNetworkTokenUnknown)
    }

    @Test func anAddWaitingForItsTermsMakesItsPassWithTheNewProduct() async throws {
        let world = World(profile: Self.profile(terms: "v1"))
        let (session, _) = try await world.add()
        let ref = try await world.token(of: session).networkTokenRef
        var changed = Self.profile(terms: "v1")
        changed.name = "Demo Visa Everyday Plus"
        changed.associatedApplicationIdentifiers = [Self.bankApp, Self.otherApp]
        _ = try await world.network.updateCardProfile(changed, networkTokenRef: ref)
        let pass = try #require(try await world.network.acceptTerms(sessionID: session.id, version: "v1").pass)
        #expect(pass.profile == changed && pass.details.productTitle == "Demo Visa Everyday Plus")
        #expect(await world.wallet.passes(visibleToApplication: Self.otherApp) == [pass])
    }
}
