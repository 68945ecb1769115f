import Foundation
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// The sandbox's MDES line against Provisio's MDES listener over mutual TLS, with neither side
/// sharing the other's code: every envelope variant the sandbox can build gets a decision, the
/// sandbox reads MDES's red answer, and a client certificate from another CA does not get in.
@Suite struct SandboxMDESIssuerConnectionTests {
    static let pan = "5555555555554444"

    @Test(arguments: TestEngine.available)
    func everyEnvelopeVariantGetsADecision(_ engine: TestEngine) async throws {
        try await Self.withListener(engine) { server, tenantID, makeLink in
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
        try await Self.withListener(.sqlite) { server, tenantID, makeLink in
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
            #expect(yellow.activationMethods.contains("otp_sms") && yellow.activationMethods.contains("customer_service"))
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

    /// A server with a tenant, its card and MDES key, and its MDES listener; `body` makes sandbox
    /// links to it (with the right client certificate unless given another).
    static func withListener(
        _ engine: TestEngine, _ body: @Sendable (TestServer, String, MakeLink) async throws -> Void
    ) async throws {
        try await TestServer.run(engine, clock: TestClock.live()) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            _ = try await server.makeCard(apiKey: apiKey, pan: pan, expiryYear: 2030)
            let issuerKey = try await MDESKeyService(
                store: SQLProvisioStore(handle: server.services.handle), vault: server.services.vault, clock: server.clock
            ).key(tenantID: tenantID, keySize: nil, rotate: false)
            let directory = NSTemporaryDirectory() + "sandbox-mdes-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let pki = try SandboxMDESPKI.generate(now: Date())
            try pki.write(to: directory)
            let file = { (name: String) in (directory as NSString).appendingPathComponent(name) }
            let tls = try TLSCredentials(
                certificateFile: file("server.pem"), keyFile: file("server-key.pem"), clientCAFile: file("ca.pem"))
            let (ports, continuation) = AsyncStream<Int>.makeStream()
            let app = MDESHTTPApplication.make(
                services: server.services, host: "127.0.0.1", port: 0, tls: tls, logger: server.logs.logger(label: "mdes"),
                onListening: { continuation.yield($0) })
            let running = Task { try await app.runService(gracefulShutdownSignals: []) }
            defer { running.cancel() }
            var port = 0
            for await bound in ports {
                port = bound
                break
            }
            let endpoint = try MDESIssuerEndpoint(baseURL: "https://127.0.0.1:\(port)/mdes/\(tenantID)/issuerServices/1/0")
            let makeLink: MakeLink = { options, client in
                let client = client ?? pki.client
                return try SandboxMDESIssuerConnection(
                    endpoint: endpoint,
                    identity: try MDESTLSIdentity(
                        certificateChainPEM: client.certificatePEM, privateKeyPEM: client.privateKeyPEM, serverCAPEM: pki.caPEM),
                    encryptor: try MDESPayloadEncryptor(publicKeyPEM: issuerKey.pem, options: options), clock: server.clock)
            }
            try await body(server, tenantID, makeLink)
            running.cancel()
            _ = await running.result
        }
    }
}
