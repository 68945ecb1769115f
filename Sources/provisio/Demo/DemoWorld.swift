import Crypto
import Foundation
import Hummingbird
import Logging
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import ProvisioSandbox
import ProvisioSandboxServer
import ProvisioServer

/// Everything the demo plays with, reached only over HTTP: Provisio (the issuer's platform),
/// the issuer's webhook receiver, and the sandbox — an iPhone and paired Watch, Apple's
/// provisioning service and the card network — as its own HTTP service. The sandbox network
/// calls Provisio with a network key; Provisio calls the network through its connector API.
///
/// Embedded (no arguments): Provisio on SQLite in a temporary directory and the sandbox, both
/// on loopback in this process. Remote (`--server`, `--sandbox`): a running Provisio and a
/// running `provisio sandbox serve` already wired to it. With `--network mdes` (embedded only)
/// the network and Provisio speak Mastercard MDES to each other (`DemoMDES`).
final class DemoWorld: Sendable {
    let api: DemoAPI
    let apiKey: String
    let sandbox: SandboxClient
    let receiver: DemoWebhookReceiver
    /// Tells this run's customers apart from earlier runs against the same server.
    let runID: String
    /// The dialect the sandbox network and Provisio speak.
    let network: NetworkDialectOption
    private let embedded: Embedded?

    /// What only the embedded world owns and must stop.
    private struct Embedded: Sendable {
        var directory: String
        var handle: any DatabaseHandle
        /// Provisio, the sandbox and (with `--network mdes`) Provisio's MDES listener.
        var servers: [RunningApplication]
        /// The webhook worker.
        var delivering: Task<Void, any Error>
        var console: DemoConsole
        /// Its HTTP client holds connections until shut down.
        var mdesLink: SandboxMDESIssuerConnection?
    }

    /// The support console, signed in as the embedded world's agent; nil against `--server`.
    var console: DemoConsole? { embedded?.console }

    private init(
        api: DemoAPI, apiKey: String, sandbox: SandboxClient, receiver: DemoWebhookReceiver, runID: String,
        network: NetworkDialectOption, embedded: Embedded?
    ) {
        self.api = api
        self.apiKey = apiKey
        self.sandbox = sandbox
        self.receiver = receiver
        self.runID = runID
        self.network = network
        self.embedded = embedded
    }

    /// Starts Provisio and the sandbox in this process.
    static func startEmbedded(transcript: DemoTranscript, network dialect: NetworkDialectOption = .provisio) async throws
        -> DemoWorld
    {
        let directory = NSTemporaryDirectory() + "provisio-demo-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var logger = Logger(label: "provisio-demo")
        logger.logLevel = .critical

        var profile = SandboxCAProfile(now: Date())
        profile.issuesRSALeaf = false
        let ca = try SandboxCertificateAuthority.generate(profile: profile)
        let keys = ProvisioKeys.generate()
        // The sandbox network's key for opaque payment cards: Provisio seals Google Pay and
        // Samsung Pay push data to its public half, and the network opens them with the private.
        let opcKey = SandboxOPCKey()
        let handle = try await DatabaseConnector.connect(.sqlite(path: directory + "/provisio.sqlite"), logger: logger)
        try await Migrator(handle: handle).migrate()
        var services = ServerServices(
            handle: handle, keys: keys,
            chainValidator: CachingChainValidator(validator: .production(additionalAnchors: [ca.root])),
            networkKey: opcKey.publicKey, networkKeyID: "sandbox-network", clock: SystemTimeSource())
        // Plain http on loopback: the console's cookies cannot be Secure here.
        services.secureConsoleCookies = false
        let server = try await listen { onListening in
            ProvisioHTTPApplication.make(services: services, host: "127.0.0.1", port: 0, logger: logger, onListening: onListening)
        }
        let worker = services.webhookWorker(
            policy: WebhookDeliveryPolicy(
                baseDelay: 0.2, maximumDelay: 2, maximumAttempts: 20, requestTimeout: .seconds(5), lease: 30,
                pollInterval: .milliseconds(50)),
            logger: logger)
        let delivering = Task { try await worker.run() }
        let provisioURL = "http://127.0.0.1:\(server.port)"
        services.publicURL.withLock { $0 = provisioURL }
        await transcript.note("Provisio listening on \(provisioURL) (SQLite in \(directory))")

        // The operator's part: a tenant for the issuer, and a network key it gives the network.
        let (tenant, apiKey) = try await services.access.createTenant(name: "Demo Bank")
        let networkKey = try await services.access.createNetworkKey(tenantID: tenant.id)
        // The support team's part: an agent for the console.
        let agent = try await services.operators.create(
            tenantID: tenant.id, email: "agent@demo-bank.example", role: .support, password: nil)
        let console = DemoConsole(
            access: DemoConsole.Access(
                url: provisioURL, tenantID: tenant.id, email: agent.record.email, password: agent.password))

        let mdes: DemoMDES? =
            dialect == .mdes
            ? try await DemoMDES.start(
                services: services, tenantID: tenant.id, directory: directory, logger: logger, transcript: transcript)
            : nil
        let wallet = SandboxWallet(certificateAuthority: ca, clock: SystemTimeSource())
        let network = SandboxNetworkTokenService(
            wallet: wallet, issuer: mdes?.link ?? IssuerConnection(baseURL: provisioURL, networkKey: networkKey),
            issuerTAVPublicKey: keys.tavSigningKey.publicKey, clock: SystemTimeSource(), opcKey: opcKey,
            defaultRisk: RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .approve))
        await network.relayOTPsThroughIssuer()
        // Google's key pair for the Google opaque payment cards Provisio seals (UPP).
        let googleKey = try SandboxGoogleKey.generate(at: Date())
        let sandboxKey = "sbx_key_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let sandboxServer = try await listen { onListening in
            SandboxHTTPService.make(
                world: SandboxHTTPWorld(
                    network: network, google: SandboxGoogleWallet(tokenService: network, googleKey: googleKey)),
                host: "127.0.0.1", port: 0, apiKey: sandboxKey,
                oauthVerifier: mdes?.verifier, mastercardKey: mdes?.mastercardKey, logger: logger, onListening: onListening)
        }
        let sandboxURL = "http://127.0.0.1:\(sandboxServer.port)"
        await transcript.note(
            "Sandbox (iPhone + Watch, Android phone with Google Wallet, Apple, card network) listening on \(sandboxURL)")
        return try await connect(
            api: try DemoAPI(baseURL: provisioURL), apiKey: apiKey,
            sandbox: SandboxClient(baseURL: sandboxURL, apiKey: sandboxKey),
            sandboxURL: sandboxURL, sandboxKey: sandboxKey, runID: "", network: dialect,
            settings: mdes.map {
                .init(
                    dialect: .mdes, customerServiceUrl: sandboxURL + "/mdes/csapi", oauthConsumerKey: $0.consumerKey,
                    oauthSigningKeyPem: $0.signingKeyPEM, mastercardEncryptionCertificatePem: $0.mastercardKey.certificatePEM)
            },
            embedded: Embedded(
                directory: directory, handle: handle,
                servers: [server, sandboxServer] + (mdes.map { [$0.listener] } ?? []), delivering: delivering,
                console: console,
                mdesLink: mdes?.link))
    }

    /// Uses a running Provisio and a running `provisio sandbox serve` wired to it.
    static func connectRemote(server: String, apiKey: String, sandboxURL: String, sandboxKey: String) async throws -> DemoWorld {
        try await connect(
            api: try DemoAPI(baseURL: server.hasSuffix("/") ? String(server.dropLast()) : server), apiKey: apiKey,
            sandbox: SandboxClient(baseURL: sandboxURL, apiKey: sandboxKey), sandboxURL: sandboxURL, sandboxKey: sandboxKey,
            runID: "-" + String(UUID().uuidString.prefix(6)).lowercased(), network: .provisio, settings: nil, embedded: nil)
    }

    /// The issuer's part, the same in both modes: its webhook receiver, and the card network
    /// its tokens live at (in Provisio's dialect unless `settings` say otherwise).
    private static func connect(
        api: DemoAPI, apiKey: String, sandbox: SandboxClient, sandboxURL: String, sandboxKey: String, runID: String,
        network: NetworkDialectOption, settings: Components.Schemas.NetworkSettingsRequest?, embedded: Embedded?
    ) async throws -> DemoWorld {
        let receiver = DemoWebhookReceiver()
        try await receiver.start()
        let world = DemoWorld(
            api: api, apiKey: apiKey, sandbox: sandbox, receiver: receiver, runID: runID, network: network,
            embedded: embedded)
        do {
            _ = try await api.client(apiKey).setNetworkSettings(
                body: .json(settings ?? .init(url: sandboxURL, apiKey: sandboxKey))
            ).ok
            // The issuer's own activation methods: its call centre (offered in either dialect only
            // with a number to call) and its app (MDES offers the app only when set up), besides
            // the codes to the cardholder's phone and email.
            _ = try await api.client(apiKey).setActivationMethodSettings(
                body: .json(.init(customerServicePhoneNumber: "+1 800 555 0100", appIdentifier: "com.demobank.app"))
            ).ok
        } catch {
            await world.shutdown()
            // A refusal is the server's answer; anything else means it could not be reached.
            guard DemoScenarios.refusal(error)?.isServerError == true else { throw error }
            throw ProvisioError(
                .demoServerRefused, "Provisio refused the sandbox as the tenant's network: \(DemoAPI.code(of: error)).")
        }
        return world
    }

    /// Runs an HTTP application in this process until `shutdown()`.
    static func listen<App: ApplicationProtocol>(
        _ make: (@escaping @Sendable (Int) async -> Void) -> App
    ) async throws -> RunningApplication {
        var logger = Logger(label: "provisio-demo")
        logger.logLevel = .critical
        do {
            return try await RunningApplication.start(logger: logger, make)
        } catch {
            throw ProvisioError(.internalError, "A demo server did not start: \(error).")
        }
    }

    func shutdown() async {
        await receiver.stop()
        guard let embedded else { return }
        await embedded.console.shutdown()
        // First the sandbox's pooled connections to the MDES listener, which would otherwise
        // keep the listener's graceful shutdown waiting.
        await embedded.mdesLink?.shutdown()
        // The servers and their background work (webhook worker, purge) must be gone before the
        // database closes: a query still running on a closed SQLite connection traps.
        for server in embedded.servers { await server.stop() }
        embedded.delivering.cancel()
        _ = await embedded.delivering.result
        await embedded.handle.shutdown()
        try? FileManager.default.removeItem(atPath: embedded.directory)
    }

    // MARK: What the issuer's backend and app do

    /// This run's name for a customer.
    func customer(_ name: String) -> String { name + runID }

    /// The issuer's backend calling Provisio with its API key.
    var issuer: Client { api.client(apiKey) }

    func createCard(customer name: String, pan: String, name holder: String, title: String) async throws
        -> Components.Schemas.Card
    {
        do {
            return try await issuer.createCard(
                body: .json(
                    .init(
                        customerRef: customer(name), pan: pan, expiryMonth: 12, expiryYear: 2031, cardholderName: holder,
                        productTitle: title))
            ).created.body.json
        } catch {
            throw ProvisioError(.demoServerRefused, "Creating the card failed: \(DemoAPI.code(of: error)).")
        }
    }

    func mobileSession(customer name: String) async throws -> String {
        do {
            return try await issuer.createMobileSession(body: .json(.init(customerRef: customer(name)))).created.body.json
                .token
        } catch {
            throw ProvisioError(.demoServerRefused, "Creating the mobile session failed: \(DemoAPI.code(of: error)).")
        }
    }

    /// The in-app add: PassKit's session on the device, the app asks Provisio for the payload
    /// with its mobile session, and Wallet hands the answer to Apple (which asks the network,
    /// which asks Provisio to decide). A refusal is returned with the session's outcome, if any.
    func add(cardID: String, primaryAccountIdentifier: String?, on kind: SandboxClient.DeviceKind, mobileToken: String)
        async throws -> (SandboxClient.AddSession, Result<SandboxClient.Outcome, ProvisioError>)
    {
        let session = try await sandbox.beginAdd(on: kind, scheme: .eccV2, primaryAccountIdentifier: primaryAccountIdentifier)
        let payload: Components.Schemas.ApplePayPayload
        do {
            payload = try await api.client(mobileToken).provisionApplePayFromMobile(
                path: .init(id: cardID),
                body: .json(
                    .init(
                        certificates: session.certificates, nonce: session.nonce, nonceSignature: session.nonceSignature,
                        deviceType: kind == .phone ? .phone : .watch))
            ).ok.body.json
        } catch {
            return (session, .failure(ProvisioError(.demoServerRefused, "Provisio refused: \(DemoAPI.code(of: error))")))
        }
        let answer = SandboxClient.SubmissionRequest(
            encryptedPassData: payload.encryptedPassData, activationData: payload.activationData,
            ephemeralPublicKey: payload.ephemeralPublicKey, wrappedKey: payload.wrappedKey)
        do {
            return (session, .success(try await sandbox.submit(sessionID: session.id, response: answer).outcome))
        } catch let error as ProvisioError {
            return (session, .failure(error))
        }
    }

    func add(card: Components.Schemas.Card, on kind: SandboxClient.DeviceKind, mobileToken: String) async throws
        -> (SandboxClient.AddSession, Result<SandboxClient.Outcome, ProvisioError>)
    {
        try await add(
            cardID: card.id, primaryAccountIdentifier: card.primaryAccountIdentifier, on: kind, mobileToken: mobileToken)
    }

    /// The issuer's view of a card's tokens.
    func tokens(cardID: String) async throws -> [Components.Schemas.Token] {
        try await issuer.listTokens(query: .init(cardId: cardID)).ok.body.json.data
    }

    /// Provisio's id of the token an add created. The network knows it in Provisio's dialect;
    /// MDES shares only the token's reference with the issuer, so the issuer's own list is asked.
    func issuerTokenID(of outcome: SandboxClient.Outcome, cardID: String) async throws -> String {
        try await tokens(cardID: cardID).first { $0.networkTokenRef == outcome.networkTokenRef }?.id ?? outcome.issuerTokenId
    }

    /// The pass with this serial number on either device, nil when Wallet has none.
    func pass(serialNumber: String) async throws -> SandboxClient.Pass? {
        do {
            return try await sandbox.pass(serialNumber: serialNumber)
        } catch let error as ProvisioError where error.code == .sandboxPassUnknown {
            return nil
        }
    }
}
