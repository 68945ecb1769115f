import Crypto
import Foundation
import Hummingbird
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import ProvisioProcess
import Testing
import _CryptoExtras

@testable import ProvisioSandbox
@testable import ProvisioSandboxServer
@testable import ProvisioServer

/// Issue 23, item 4, for the sandbox's own MDES: every request its network sends to Provisio's
/// MDES listener with Provisio's answer, and every Customer Service request Provisio signs and
/// sends to the sandbox with the sandbox's answer, captured through the sandbox's test-only
/// `MDESTrafficObserver` and validated by `Tools/mdes-conformance/validate.py` against Provisio's
/// OpenAPI documents. The world is `provisio demo --network mdes`'s, built in process (the demo
/// is an executable): the listener over mutual TLS, the sandbox network with the MDES line, the
/// sandbox's Customer Service API behind its OAuth gateway.
@Suite struct SandboxMDESConformanceTests {
    static let pan = "5555555555554444"
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let install =
        "Tools/mdes-conformance needs them. Install python3 with its jsonschema and yaml modules (Debian: apt-get install python3 python3-jsonschema "
        + "python3-yaml; elsewhere: pip install jsonschema pyyaml); .ci/run installs them."

    /// The exchanges as validate.py reads them, one JSON object a line.
    actor Capture {
        var lines: [String] = []

        func add(_ api: String, _ exchange: MDESObservedExchange) {
            let object: [String: Any] = [
                "api": api, "path": exchange.path, "request": String(decoding: exchange.request, as: UTF8.self),
                "status": exchange.status, "response": String(decoding: exchange.response, as: UTF8.self),
            ]
            if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
                lines.append(String(decoding: data, as: UTF8.self))
            }
        }
    }

    /// What the run must hold at least, so one that stops early fails.
    static let required: [String: Int] = [
        // 12 envelope variants, the SHA-1 fingerprint, a green, three yellows, two declines.
        "issuer-outbound authorizeService 200": 12 + 1 + 1 + 3 + 2,
        "issuer-outbound deliverActivationCode 200": 1,
        "issuer-outbound validateActivationCode 200": 2,
        "issuer-outbound notifyServiceActivated 200": 2,
        "issuer-outbound notifyTokenUpdated 200": 3,
        "customer-service suspendToken 200": 1,
        "customer-service unsuspendToken 200": 1,
        "customer-service searchTokens 200": 1,
        "customer-service deleteToken 200": 1,
        "customer-service activateToken 200": 1,
        "customer-service updateToken 200": 1,
    ]

    // A bound for a hang, not a speed: it counts the wait for a ServerTestSlots slot too.
    @Test(.timeLimit(.minutes(10)))
    func theSandboxsTrafficMatchesTheDocuments() async throws {
        let python = try await ProgramLookup.requirePython3(importing: ["jsonschema", "yaml"], orInstall: Self.install)
        let capture = Capture()
        try await Self.drive(capture)

        let file = NSTemporaryDirectory() + "sandbox-mdes-conformance-\(UUID().uuidString.prefix(8)).jsonl"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try (await capture.lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let validation = try await ChildProcess.run(
            python, arguments: [Self.root.appendingPathComponent("Tools/mdes-conformance/validate.py").path, file],
            workingDirectory: Self.root.path)
        // The validator prints no message content, so its whole output can be shown.
        let report = validation.standardOutput + validation.standardError
        #expect(validation.status == 0, "validate.py exited \(validation.status):\n\(report)")
        let counts = MDESConformanceCounts.parse(validation.standardOutput)
        let missing = Self.required.filter { counts[$0.key, default: 0] < $0.value }.map(\.key).sorted()
        #expect(missing.isEmpty, "Too few exchanges of \(missing):\n\(report)")
    }

    /// Plays what the demo's MDES scenarios do, and more variants, through the observed links.
    static func drive(_ capture: Capture) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        receiver.setAnswer(#"{"channels":[{"type":"sms","masked":"******4821"}]}"#)
        try await TestServer.run(
            .sqlite, clock: TestClock.live(), outbound: OutboundRequestForgeryTests.guarded(allowLoopback: true)
        ) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let card = try await server.makeCard(apiKey: apiKey, pan: pan, expiryYear: 2030)
            _ = try await api.createWebhookEndpoint(body: .json(.init(url: receiver.url, events: [.token_otpRequested]))).created
            let issuerKey = try await MDESKeyService(
                store: SQLProvisioStore(handle: server.services.handle), vault: server.services.vault, clock: server.clock
            ).key(tenantID: tenantID, keySize: nil, rotate: false)

            // Provisio's MDES listener, mutual TLS.
            let (pki, credentials) = try MDESListenerHarness.sandboxPKI()
            let mdesListener = try await MDESListenerHarness.start(server, credentials: credentials)
            let mdesPort = mdesListener.port
            // On a failure, stopped in the background (a second stop changes nothing).
            defer { Task { await mdesListener.stop() } }
            let endpoint = try MDESIssuerEndpoint(baseURL: "https://127.0.0.1:\(mdesPort)/mdes/\(tenantID)/issuerServices/1/0")
            let observe: MDESTrafficObserver = { await capture.add("issuer-outbound", $0) }
            let makeLink = { (options: MDESEnvelopeOptions) in
                try SandboxMDESIssuerConnection(
                    endpoint: endpoint,
                    identity: try MDESTLSIdentity(
                        certificateChainPEM: pki.client.certificatePEM, privateKeyPEM: pki.client.privateKeyPEM,
                        serverCAPEM: pki.caPEM),
                    encryptor: try MDESPayloadEncryptor(publicKeyPEM: issuerKey.pem, options: options), clock: server.clock,
                    observer: observe)
            }

            // The envelope variants the sandbox can build, each a green decision.
            for options in MDESEnvelopeOptions.allVariants + [MDESEnvelopeOptions(fingerprint: .sha1)] {
                let link = try makeLink(options)
                let decision = try await link.requestDecision(
                    SandboxMDESIssuerConnectionTests.request(link, pan: pan, expiryYear: 2030))
                await link.shutdown()
                #expect(decision.outcome == .approve, "\(options)")
            }

            // The sandbox network on the MDES line, and its Customer Service API behind the gateway.
            let link = try makeLink(MDESEnvelopeOptions())
            var profile = SandboxCAProfile(now: Date())
            profile.issuesRSALeaf = false
            let wallet = SandboxWallet(certificateAuthority: try SandboxCertificateAuthority.generate(profile: profile))
            let network = SandboxNetworkTokenService(
                wallet: wallet, issuer: link, issuerTAVPublicKey: P256.Signing.PrivateKey().publicKey)
            let signingKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let consumerKey = "sandbox-conformance-consumer-key"
            let gateway = SandboxMDESGatewayMiddleware(
                verifier: try SandboxOAuthVerifier(
                    publicKeyPEM: signingKey.publicKey.pemRepresentation, consumerKey: consumerKey),
                nonces: OAuthNonceLedger(), clock: wallet.clock, logger: server.logs.logger(label: "sandbox"),
                observer: { await capture.add("customer-service", $0) })
            let router = Router(context: PlainRequestContext.self)
            let group = router.group().add(middleware: gateway)
            let mastercardKey = try SandboxMastercardEncryptionKey.generate(now: Date())
            try SandboxMDESCustomerServiceHandler.register(
                world: SandboxHTTPWorld(network: network), decrypter: try mastercardKey.decrypter(),
                logger: server.logs.logger(label: "sandbox"),
                on: RoutedTransport<PlainRequestContext> { _, path in (group, path) })
            let sandbox = try await RunningApplication.start(logger: server.logs.logger(label: "sandbox")) { onListening in
                Application(
                    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { await onListening($0.localAddress?.port ?? 0) },
                    logger: server.logs.logger(label: "sandbox"))
            }
            let sandboxPort = sandbox.port
            defer { Task { await sandbox.stop() } }
            _ = try await api.setNetworkSettings(
                body: .json(
                    .init(
                        dialect: .mdes, customerServiceUrl: "http://127.0.0.1:\(sandboxPort)/mdes/csapi",
                        oauthConsumerKey: consumerKey, oauthSigningKeyPem: signingKey.pemRepresentation,
                        mastercardEncryptionCertificatePem: mastercardKey.certificatePEM))
            ).ok

            let yellow = RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .requireVerification)
            func provision(_ risk: RiskAssessment? = nil, expiryYear: Int = 2030, pan: String = pan) async throws
                -> NetworkProvisioningOutcome
            {
                try await network.provision(
                    ProvisioningSubmission(
                        sessionID: UUID().uuidString, scheme: .eccV2, primaryAccountNumber: try PrimaryAccountNumber(pan),
                        expiry: try CardExpiry(month: 12, year: expiryYear), cardholderName: try CardholderName("Jane Doe"),
                        activationData: nil, device: try wallet.device(.phone), primaryAccountIdentifier: nil,
                        submittedAt: Date()),
                    risk: risk)
            }
            func networkToken(_ outcome: NetworkProvisioningOutcome) async throws -> NetworkToken {
                try #require(await network.token(networkTokenRef: outcome.networkTokenRef))
            }
            let store = SQLProvisioStore(handle: server.services.handle)
            func provisioID(_ outcome: NetworkProvisioningOutcome) async throws -> String {
                try #require(try await store.token(networkTokenRef: outcome.networkTokenRef, tenantID: tenantID)).id
            }

            // Red: a wrong expiry and an unknown card.
            #expect(try await provision(expiryYear: 2031).decision == .decline)
            #expect(try await provision(pan: "4111111111111111").decision == .decline)

            // Yellow: a code delivered, a wrong one and the right one checked, the activation told.
            let first = try await networkToken(try await provision(yellow))
            #expect(first.decision == .requireVerification)
            let otp = SandboxOTP(networkTokenRef: first.networkTokenRef, code: "482913", expiresAt: Date() + 300)
            _ = try await link.relayOTP(otp, token: first)
            #expect(try await link.checkActivationCode("000000", token: first) == .incorrect)
            #expect(try await link.checkActivationCode("482913", token: first) == .correct)
            try await link.report(event: .otpVerified, reasonCode: nil, token: first)
            // What the network saw: a lost device, the wallet's resume, the pass removed.
            try await link.report(event: .deviceLost, reasonCode: nil, token: first)
            try await link.report(event: .resumed, reasonCode: nil, token: first)
            try await link.report(event: .removedFromWallet, reasonCode: nil, token: first)
            // In-app verification: the network checked the TAV.
            let second = try await networkToken(try await provision(yellow))
            try await link.report(event: .activated, reasonCode: "tav_verified", token: second)

            // The issuer's own changes through the Customer Service API: suspend, resume, delete
            // a green token, and activate a yellow one after a call to customer service.
            let green = try await provisioID(try await provision())
            for (action, reason) in [("suspend", "device_lost"), ("resume", "device_found"), ("delete", "customer_request")] {
                let changed = try await TokenAPITests.transition(
                    server, apiKey: apiKey, green, .init(rawValue: action)!, reason: reason)
                _ = try changed.ok
            }
            let pending = try await provisioID(try await provision(yellow))
            _ = try await api.activateToken(
                path: .init(id: pending), body: .json(.init(mode: .customerService, reasonCode: "agent_verified"))
            ).ok
            // A reissued card: its new expiry, encrypted for Mastercard's key, goes to each live
            // token (`/v2/token/update`). The envelope variants' tokens exist at Provisio but not
            // at this network, which refuses them: their refusals are validated too.
            let reissued = try await api.updateCard(
                path: .init(id: card.id), body: .json(.init(expiryMonth: 11, expiryYear: 2031))
            ).ok.body.json
            #expect(reissued.tokenUpdates?.contains { $0.outcome == .updated } == true, "\(reissued)")
            await link.shutdown()
            await sandbox.stop()
            await mdesListener.stop()
        }
    }
}

/// `COUNT <api> <operation> <status>: n` lines of validate.py.
enum MDESConformanceCounts {
    static func parse(_ output: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("COUNT ") {
            let parts = line.dropFirst(6).split(separator: ":")
            if parts.count == 2, let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) { counts[String(parts[0])] = n }
        }
        return counts
    }
}
