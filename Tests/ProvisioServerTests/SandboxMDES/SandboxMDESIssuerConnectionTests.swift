import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import Testing

@testable import ProvisioSandbox
@testable import ProvisioServer

/// The sandbox's MDES line against Provisio's MDES listener over mutual TLS, with neither side
/// sharing the other's code: every envelope variant the sandbox can build gets a decision, the
/// sandbox reads MDES's red answer, and a client certificate from another CA does not get in.
@Suite struct SandboxMDESIssuerConnectionTests {
    static let pan = "5555555555554444"

    @Test(arguments: TestEngine.available)
    func everyEnvelopeVariantGetsADecision(_ engine: TestEngine) async throws {
        try await Self.withListener(engine) { server, tenantID, apiKey, makeLink in
            for options in MDESEnvelopeOptions.allVariants + [MDESEnvelopeOptions(fingerprint: .sha1)] {
                let link = try await makeLink(options, nil)
                let decision = try await link.requestDecision(Self.request(link, pan: Self.pan, expiryYear: 2030))
                await link.shutdown()
                #expect(decision.outcome == .approve, "\(options)")
                #expect(decision.reasons == ["APPROVED"] && decision.tokenID.hasPrefix("DSBXMC"))
            }
        }
    }

    @Test func redAnswersAndAStrangerCertificate() async throws {
        try await Self.withListener(.sqlite) { server, tenantID, apiKey, makeLink in
            let link = try await makeLink(MDESEnvelopeOptions(), nil)
            let wrongExpiry = try await link.requestDecision(Self.request(link, pan: Self.pan, expiryYear: 2031))
            #expect(wrongExpiry.outcome == .decline && wrongExpiry.reasons == ["INVAL_CARD"])
            let unknown = try await link.requestDecision(Self.request(link, pan: "4111111111111111", expiryYear: 2030))
            #expect(unknown.outcome == .decline)
            let yellow = try await link.requestDecision(
                Self.request(
                    link, pan: Self.pan, expiryYear: 2030,
                    risk: RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .requireVerification)))
            #expect(yellow.outcome == .requireVerification)
            #expect(yellow.activationMethods.contains("otp_sms") && yellow.activationMethods.contains("otp_email"))
            await link.shutdown()

            // A client certificate from a CA the listener does not trust: no handshake, no call.
            let stranger = try SandboxMDESPKI.generate(now: Date())
            let refused = try await makeLink(MDESEnvelopeOptions(), stranger.client)
            await #expect(throws: ProvisioError.self) {
                try await refused.requestDecision(Self.request(refused, pan: Self.pan, expiryYear: 2030))
            }
            await refused.shutdown()
        }
    }

    @Test func codesActivationsAndStatusChangesReachTheIssuer() async throws {
        // The issuer's webhook, which delivers the codes Provisio relays and says where.
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        receiver.setAnswer(#"{"channels":[{"type":"sms","masked":"******4821"}]}"#)
        try await Self.withListener(.sqlite) { server, tenantID, apiKey, makeLink in
            _ = try await server.api(apiKey).createWebhookEndpoint(
                body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
            ).created
            let link = try await makeLink(MDESEnvelopeOptions(), nil)
            let store = SQLProvisioStore(handle: server.services.handle)
            let yellow = RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .requireVerification)
            func state(_ token: NetworkToken) async throws -> TokenState? {
                try await store.token(networkTokenRef: token.networkTokenRef, tenantID: tenantID)?.state
            }

            // A code: delivered through the issuer, checked by the issuer.
            let first = try await Self.token(link, risk: yellow)
            #expect(try await state(first) == .pendingVerification)
            let otp = SandboxOTP(networkTokenRef: first.networkTokenRef, code: "482913", expiresAt: Date() + 300)
            let channels = try await link.relayOTP(otp, token: first)
            #expect(channels.first?.type == "sms" && channels.first?.masked.hasSuffix("4821") == true)
            #expect(try await link.checkActivationCode("000000", token: first) == .incorrect)
            #expect(try await link.checkActivationCode("482913", token: first) == .correct)
            #expect(try await state(first) == .active)
            try await link.report(event: .otpVerified, reasonCode: nil, token: first)
            #expect(try await state(first) == .active)

            // What the network saw: a lost device, the wallet's resume, the pass removed.
            try await link.report(event: .deviceLost, reasonCode: nil, token: first)
            #expect(try await state(first) == .suspended)
            try await link.report(event: .resumed, reasonCode: nil, token: first)
            #expect(try await state(first) == .active)
            try await link.report(event: .removedFromWallet, reasonCode: nil, token: first)
            #expect(try await state(first) == .deleted)

            // In-app verification: the network checked the TAV and says the token is active.
            let second = try await Self.token(link, risk: yellow)
            try await link.report(event: .activated, reasonCode: "tav_verified", token: second)
            #expect(try await state(second) == .active)
            await link.shutdown()
        }
    }

    /// A token the issuer decided on, as the sandbox network records it.
    static func token(_ link: SandboxMDESIssuerConnection, risk: RiskAssessment) async throws -> NetworkToken {
        let request = try request(link, pan: pan, expiryYear: 2030, risk: risk)
        let decision = try await link.requestDecision(request)
        return NetworkToken(
            networkTokenRef: request.networkTokenRef, tokenPrimaryAccountNumber: try SandboxTokenPAN.generate(),
            fundingPrimaryAccountNumber: request.primaryAccountNumber, fundingExpiry: request.expiry,
            deviceAccountIdentifier: "DAI",
            device: SandboxDevice(kind: .phone, secureElementPublicKey: P256.Signing.PrivateKey().publicKey),
            primaryAccountIdentifier: request.networkTokenRef, issuerTokenID: decision.tokenID,
            state: decision.outcome == .approve ? .active : .pendingActivation, decision: decision.outcome,
            reasons: decision.reasons, activationMethods: decision.activationMethods, passSerialNumber: nil, createdAt: Date())
    }

    static func request(
        _ link: SandboxMDESIssuerConnection, pan: String, expiryYear: Int,
        risk: RiskAssessment = RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .approve)
    ) throws -> IssuerDecisionRequest {
        IssuerDecisionRequest(
            primaryAccountNumber: try PrimaryAccountNumber(pan), expiry: try CardExpiry(month: 12, year: expiryYear),
            deviceType: .phone, networkTokenRef: link.makeTokenReference(), tokenLast4: nil, deviceAccountIdentifier: nil,
            risk: risk)
    }

    typealias MakeLink = @Sendable (MDESEnvelopeOptions, SandboxMDESPKI.Identity?) async throws -> SandboxMDESIssuerConnection

    /// A server with a tenant (its id and API key), its card and MDES key, and its MDES listener;
    /// `body` makes sandbox links to it (with the right client certificate unless given another).
    static func withListener(
        _ engine: TestEngine, _ body: @Sendable (TestServer, String, String, MakeLink) async throws -> Void
    ) async throws {
        try await TestServer.run(engine, clock: TestClock.live()) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            _ = try await server.makeCard(apiKey: apiKey, pan: pan, expiryYear: 2030)
            let issuerKey = try await MDESKeyService(
                store: SQLProvisioStore(handle: server.services.handle), vault: server.services.vault, clock: server.clock
            ).key(tenantID: tenantID, keySize: nil, rotate: false)
            let (pki, credentials) = try MDESListenerHarness.sandboxPKI()
            let running = try await MDESListenerHarness.start(server, credentials: credentials)
            let port = running.port
            let endpoint = try MDESIssuerEndpoint(baseURL: "https://127.0.0.1:\(port)/mdes/\(tenantID)/issuerServices/1/0")
            let makeLink: MakeLink = { options, client in
                let client = client ?? pki.client
                return try SandboxMDESIssuerConnection(
                    endpoint: endpoint,
                    identity: try MDESTLSIdentity(
                        certificateChainPEM: client.certificatePEM, privateKeyPEM: client.privateKeyPEM, serverCAPEM: pki.caPEM),
                    encryptor: try MDESPayloadEncryptor(publicKeyPEM: issuerKey.pem, options: options), clock: server.clock)
            }
            do {
                try await body(server, tenantID, apiKey, makeLink)
            } catch {
                await running.stop()
                throw error
            }
            await running.stop()
        }
    }
}
