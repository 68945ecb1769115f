import Crypto
import Foundation
import Logging
import ProvisioConnectorAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioSandboxAPI
import ProvisioSandboxServer
import Testing

/// A card product through the sandbox's HTTP service: the pass an add makes carries the
/// product's profile, `app_identifier` lists what one app sees, the pass's app link, the terms an
/// add waits on (409, then the acceptance of exactly that version), and a product change on the
/// connector's card details. The issuer here answers decisions with a profile as Provisio does for
/// a card with a product; every answer is held to the documents.
@Suite struct SandboxCardProductHTTPTests {
    typealias Wire = ProvisioSandboxAPI.Components.Schemas
    typealias Connector = ProvisioConnectorAPI.Components.Schemas

    static let bankApp = "A1B2C3D4E5.com.demobank.app"
    static let pan = try! PrimaryAccountNumber("4111111111111111")
    static let expiry = try! CardExpiry(slashed: "09/30")

    static func profile(terms: String? = nil) -> SandboxCardProfile {
        SandboxCardProfile(
            productID: "prod_everyday", name: "Demo Visa Everyday", appLaunchURL: "demobank://wallet",
            associatedApplicationIdentifiers: [bankApp], associatedStoreIdentifiers: [1_234_567_890],
            contactName: "Demo Bank", supportPhone: "+44 20 7946 0000", termsURL: terms.map { "https://bank.example/t/\($0)" },
            termsVersion: terms, cardArtURL: "https://bank.example/art/everyday.png")
    }

    /// The issuer's side: decisions with the product's profile, as Provisio answers them.
    final class ProfileIssuer: IssuerLink, Sendable {
        let profile: SandboxCardProfile?
        init(profile: SandboxCardProfile?) { self.profile = profile }
        func makeTokenReference() -> String { "sbx_ntr_" + UUID().uuidString.lowercased() }
        func requestDecision(_ request: IssuerDecisionRequest) async throws -> IssuerDecision {
            IssuerDecision(
                tokenID: "tok_1", outcome: .approve, reasons: [], state: "active", activationMethods: [], profile: profile)
        }
        func report(event: NetworkTokenEvent, reasonCode: String?, token: NetworkToken) async throws {}
        func relayOTP(_ otp: SandboxOTP, token: NetworkToken) async throws -> [IssuerConnection.OTPChannel] { [] }
        var checksActivationCodes: Bool { false }
        func checkActivationCode(_ code: String, token: NetworkToken) async throws -> ActivationCodeVerdict { .incorrect }
    }

    struct Service {
        let world: SandboxHTTPWorld
        let client: SandboxClient
        let api: ProvisioSandboxAPI.Client
        let connector: ProvisioConnectorAPI.Client
        let tavKey: P256.Signing.PrivateKey

        /// Begins an add on the iPhone over HTTP and answers it as the issuer would (Provisio's
        /// `apple-pay` answer, sealed to the session's leaf): the session and the answer.
        func answeredSession() async throws -> (Wire.AddSession, Wire.SubmissionRequest) {
            let session = try await client.beginAdd(on: .phone, primaryAccountIdentifier: "card_product")
            let builder = ApplePayloadBuilder(
                validator: AppleCertificateChainValidator.production(additionalAnchors: [TestServer.sandboxCA.root]),
                tavSigner: TAVSigner(privateKey: tavKey))
            let challenge = try PassKitChallenge(
                certificates: session.certificates, nonceText: session.nonce, nonceSignatureText: session.nonceSignature,
                schemeName: "ECC_V2")
            let answer = try builder.build(
                ApplePayloadRequest(
                    primaryAccountNumber: pan, expiry: expiry, name: try CardholderName("Jane Appleseed"),
                    challenge: challenge),
                at: Date())
            return (
                session,
                Wire.SubmissionRequest(
                    encryptedPassData: answer.encryptedPassData, activationData: answer.activationData,
                    ephemeralPublicKey: answer.ephemeralPublicKey, wrappedKey: answer.wrappedKey)
            )
        }
    }

    static func run(profile: SandboxCardProfile?, _ body: @Sendable (Service) async throws -> Void) async throws {
        let tavKey = P256.Signing.PrivateKey()
        let wallet = SandboxWallet(certificateAuthority: TestServer.sandboxCA)
        let network = SandboxNetworkTokenService(
            wallet: wallet, issuer: ProfileIssuer(profile: profile), issuerTAVPublicKey: tavKey.publicKey)
        let world = SandboxHTTPWorld(network: network)
        let key = "sbx_key_" + UUID().uuidString.lowercased()
        try await SandboxServiceRunner.run(world: world, apiKey: key, logger: Logger(label: "sandbox-products")) { url in
            let serverURL = try #require(URL(string: url))
            let api = ProvisioSandboxAPI.Client(
                serverURL: serverURL, configuration: APIJSON.configuration, transport: TestHTTPClient.transport,
                middlewares: [BearerToken(token: key), DocumentedAnswers(contract: .sandbox, log: nil)])
            let connector = ProvisioConnectorAPI.Client(
                serverURL: serverURL, configuration: APIJSON.configuration, transport: TestHTTPClient.transport,
                middlewares: [BearerToken(token: key), DocumentedAnswers(contract: .connector, log: nil)])
            let client = SandboxClient(
                baseURL: url, apiKey: key, middlewares: [DocumentedAnswers(contract: .sandbox, log: nil)])
            try await body(Service(world: world, client: client, api: api, connector: connector, tavKey: tavKey))
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

    @Test(.timeLimit(.minutes(10))) func theAddWaitsForTheTermsAndThePassCarriesTheProduct() async throws {
        try await Self.run(profile: Self.profile(terms: "2026-03")) { s in
            let (session, answer) = try await s.answeredSession()
            #expect(
                await Self.code { try await s.client.submit(sessionID: session.id, response: answer) } == .sandboxTermsNotAccepted
            )
            let waiting = try await s.client.outcome(sessionID: session.id)
            #expect(waiting.pass == nil && waiting.termsVersion == "2026-03")
            #expect(waiting.termsUrl == "https://bank.example/t/2026-03")
            #expect(try await s.client.passes().isEmpty)

            // Another version: 422, and it still waits. Out of the document's bounds: 400.
            #expect(
                await Self.code { try await s.client.acceptTerms(sessionID: session.id, version: "2026-02") }
                    == .sandboxTermsVersionMismatch)
            for outside in ["", String(repeating: "v", count: 33)] {
                let refused = try await s.api.acceptTerms(path: .init(id: session.id), body: .json(.init(version: outside)))
                #expect(try refused.badRequest.body.json.error.code == "sandbox_invalid_request")
            }
            // 32 characters is within the bounds: the version itself is what is refused.
            let longest = String(repeating: "v", count: 32)
            #expect(
                await Self.code { try await s.client.acceptTerms(sessionID: session.id, version: longest) }
                    == .sandboxTermsVersionMismatch)
            #expect(try await s.client.outcome(sessionID: session.id) == waiting)
        }
    }

    @Test(.timeLimit(.minutes(10))) func acceptedTermsMakeThePassWithTheProductsProfile() async throws {
        try await Self.run(profile: Self.profile(terms: "2026-03")) { s in
            let (session, answer) = try await s.answeredSession()
            _ = await Self.code { try await s.client.submit(sessionID: session.id, response: answer) }
            let outcome = try await s.client.acceptTerms(sessionID: session.id, version: "2026-03")
            let pass = try #require(outcome.pass)
            #expect(outcome.termsVersion == nil && pass.activationState == .activated)
            #expect(pass.productTitle == "Demo Visa Everyday")
            #expect(pass.cardArtUrl == "https://bank.example/art/everyday.png")
            #expect(pass.cardProfile?.associatedApplicationIdentifiers == [Self.bankApp])
            #expect(pass.cardProfile?.termsVersion == "2026-03" && pass.cardProfile?.productId == "prod_everyday")
            #expect(try await s.client.outcome(sessionID: session.id).pass == pass)
            #expect(
                await Self.code { try await s.client.acceptTerms(sessionID: session.id, version: "2026-03") }
                    == .sandboxTermsNotPending)
        }
    }

    @Test(.timeLimit(.minutes(10))) func anAppListsOnlyThePassesItSeesAndOpensTheProductsLink() async throws {
        try await Self.run(profile: Self.profile()) { s in
            let (session, answer) = try await s.answeredSession()
            let submitted = try await s.client.submit(sessionID: session.id, response: answer)
            let pass = try #require(submitted.outcome.pass)
            let plain = try await s.world.wallet.addPass(
                on: .phone, primaryAccountIdentifier: "card_plain", primaryAccountNumberSuffix: "1111",
                deviceAccountIdentifier: "DPAN_PLAIN")

            #expect(
                try await s.client.passes(visibleToApplication: Self.bankApp).map(\.serialNumber) == [
                    pass.serialNumber, plain.serialNumber,
                ])
            #expect(
                try await s.client.passes(visibleToApplication: "Z9Y8X7W6V5.com.other").map(\.serialNumber) == [
                    plain.serialNumber
                ])
            #expect(try await s.client.passes(visibleToApplication: Self.bankApp, on: .watch).isEmpty)
            #expect(try await s.client.passes().count == 2)
            // The identifier's bounds: 128 characters at most, not empty.
            let longest = String(repeating: "a", count: 128)
            #expect(try await s.client.passes(visibleToApplication: longest).map(\.serialNumber) == [plain.serialNumber])
            for outside in [longest + "a", ""] {
                let refused = try await s.api.listPasses(query: .init(appIdentifier: outside))
                #expect(try refused.badRequest.body.json.error.code == "sandbox_invalid_request", "\(outside.count)")
            }

            let link = try await s.client.appLaunchURL(serialNumber: pass.serialNumber)
            #expect(link == "demobank://wallet?passTypeIdentifier=paymentpass.com.apple&serialNumber=\(pass.serialNumber)")
            #expect(
                await Self.code { try await s.client.appLaunchURL(serialNumber: plain.serialNumber) }
                    == .sandboxAppLaunchUnavailable)
            #expect(await Self.code { try await s.client.appLaunchURL(serialNumber: "nope") } == .sandboxPassUnknown)
        }
    }

    @Test(.timeLimit(.minutes(10))) func aProductChangeOnTheConnectorReachesThePass() async throws {
        try await Self.run(profile: Self.profile()) { s in
            let (session, answer) = try await s.answeredSession()
            let submitted = try await s.client.submit(sessionID: session.id, response: answer)
            let ref = submitted.outcome.networkTokenRef
            let premium = Connector.CardProfile(
                productId: "prod_premium", name: "Demo Visa Premium", appLaunchUrl: "demobank://premium",
                associatedApplicationIdentifiers: ["Z9Y8X7W6V5.com.other"], associatedStoreIdentifiers: [],
                cardArtUrl: "https://bank.example/art/premium.png")
            let answered = try await s.connector.updateCardDetails(
                path: .init(ref: ref), body: .json(.init(cardProfile: premium)))
            #expect(try answered.ok.body.json.passSerialNumber == submitted.outcome.pass?.serialNumber)

            let pass = try #require(try await s.client.passes().first)
            #expect(pass.productTitle == "Demo Visa Premium" && pass.cardArtUrl == "https://bank.example/art/premium.png")
            #expect(pass.cardProfile?.productId == "prod_premium")
            #expect(pass.expiry == Self.expiry.slashed)
            #expect(try await s.client.passes(visibleToApplication: Self.bankApp).isEmpty)
            #expect(try await s.client.passes(visibleToApplication: "Z9Y8X7W6V5.com.other") == [pass])
            #expect(try await s.client.appLaunchURL(serialNumber: pass.serialNumber).hasPrefix("demobank://premium?"))
            #expect(await s.world.network.token(networkTokenRef: ref)?.profile?.productID == "prod_premium")
        }
    }

    @Test(.timeLimit(.minutes(10))) func aCardWithoutAProductAddsAsBefore() async throws {
        try await Self.run(profile: nil) { s in
            let (session, answer) = try await s.answeredSession()
            let submitted = try await s.client.submit(sessionID: session.id, response: answer)
            let pass = try #require(submitted.outcome.pass)
            #expect(pass.cardProfile == nil && pass.productTitle == nil && submitted.outcome.termsVersion == nil)
            #expect(try await s.client.passes(visibleToApplication: Self.bankApp) == [pass])
            #expect(
                await Self.code { try await s.client.acceptTerms(sessionID: session.id, version: "v1") }
                    == .sandboxTermsNotPending)
        }
    }
}
