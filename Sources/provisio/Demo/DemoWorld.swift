import Crypto
import Foundation
import Hummingbird
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioServer

/// Everything the demo plays with: an embedded Provisio (SQLite in a temporary directory) on
/// loopback with its webhook worker, the issuer's webhook receiver, and the sandbox — an
/// iPhone and paired Watch, Apple's provisioning service and the card network, which reaches
/// Provisio only over HTTP with its network key.
final class DemoWorld: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is a `let` of a Sendable type or a task
    // handle set once in `start` before the world is shared.
    let directory: String
    let services: ServerServices
    let api: DemoAPI
    let apiKey: String
    let wallet: SandboxWallet
    let network: SandboxNetworkTokenService
    let apple: SandboxAppleProvisioningService
    let receiver: DemoWebhookReceiver
    private let tasks: [Task<Void, any Error>]

    private init(
        directory: String, services: ServerServices, api: DemoAPI, apiKey: String, wallet: SandboxWallet,
        network: SandboxNetworkTokenService, apple: SandboxAppleProvisioningService, receiver: DemoWebhookReceiver,
        tasks: [Task<Void, any Error>]
    ) {
        self.directory = directory
        self.services = services
        self.api = api
        self.apiKey = apiKey
        self.wallet = wallet
        self.network = network
        self.apple = apple
        self.receiver = receiver
        self.tasks = tasks
    }

    static func start(transcript: DemoTranscript) async throws -> DemoWorld {
        let directory = NSTemporaryDirectory() + "provisio-demo-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var logger = Logger(label: "provisio-demo")
        logger.logLevel = .critical

        var profile = SandboxCAProfile(now: Date())
        profile.issuesRSALeaf = false
        let ca = try SandboxCertificateAuthority.generate(profile: profile)
        let keys = ProvisioKeys.generate()
        let handle = try await DatabaseConnector.connect(.sqlite(path: directory + "/provisio.sqlite"), logger: logger)
        try await Migrator(handle: handle).migrate()
        let services = ServerServices(
            handle: handle, keys: keys,
            chainValidator: CachingChainValidator(validator: .production(additionalAnchors: [ca.root])),
            networkKey: P256.KeyAgreement.PrivateKey().publicKey, networkKeyID: "sandbox-network", clock: SystemTimeSource())

        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = ProvisioHTTPApplication.make(
            services: services, host: "127.0.0.1", port: 0, logger: logger, onListening: { continuation.yield($0) })
        let server = Task { try await app.run() }
        var port = 0
        for await bound in ports {
            port = bound
            break
        }
        let worker = services.webhookWorker(
            policy: WebhookDeliveryPolicy(
                baseDelay: 0.2, maximumDelay: 2, maximumAttempts: 20, requestTimeout: .seconds(5), lease: 30,
                pollInterval: .milliseconds(50)),
            logger: logger)
        let delivering = Task { try await worker.run() }
        await transcript.note("Provisio listening on http://127.0.0.1:\(port) (SQLite in \(directory))")

        let (tenant, apiKey) = try await services.access.createTenant(name: "Demo Bank")
        let networkKey = try await services.access.createNetworkKey(tenantID: tenant.id)
        let receiver = DemoWebhookReceiver()
        try await receiver.start()

        let wallet = SandboxWallet(certificateAuthority: ca, clock: SystemTimeSource())
        let network = SandboxNetworkTokenService(
            wallet: wallet, issuer: IssuerConnection(baseURL: "http://127.0.0.1:\(port)", networkKey: networkKey),
            issuerTAVPublicKey: keys.tavSigningKey.publicKey, clock: SystemTimeSource(),
            defaultRisk: RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .approve))
        await network.relayOTPsThroughIssuer()
        let apple = SandboxAppleProvisioningService(wallet: wallet, network: network)
        return DemoWorld(
            directory: directory, services: services, api: DemoAPI(baseURL: "http://127.0.0.1:\(port)"), apiKey: apiKey,
            wallet: wallet, network: network, apple: apple, receiver: receiver, tasks: [server, delivering])
    }

    func shutdown() async {
        receiver.stop()
        for task in tasks { task.cancel() }
        await services.handle.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: What the issuer's backend and app do

    func createCard(customer: String, pan: String, name: String, title: String) async throws -> [String: Any] {
        let reply = try await api.post(
            "/v1/cards", token: apiKey,
            json: [
                "customer_ref": customer, "pan": pan, "expiry_month": 12, "expiry_year": 2031, "cardholder_name": name,
                "product_title": title,
            ])
        guard reply.status == 201, let card = reply.json else {
            throw ProvisioError(.internalError, "Creating the card failed: \(reply.errorCode ?? "HTTP \(reply.status)").")
        }
        return card
    }

    func mobileSession(customer: String) async throws -> String {
        let reply = try await api.post("/v1/mobile-sessions", token: apiKey, json: ["customer_ref": customer])
        guard let token = reply.json?["token"] as? String else {
            throw ProvisioError(.internalError, "Creating the mobile session failed.")
        }
        return token
    }

    /// The in-app add: PassKit's session on the device, the app asks Provisio for the payload
    /// with its mobile session, and Wallet hands the answer to Apple (which asks the network,
    /// which asks Provisio to decide).
    func add(card: [String: Any], on kind: SandboxDeviceKind, mobileToken: String) async throws
        -> (AddPaymentPassSession, Result<ProvisioningSubmission, ProvisioError>)
    {
        let cardID = card["id"] as! String
        let session = try await wallet.beginAdd(
            on: kind, scheme: .eccV2, primaryAccountIdentifier: card["primary_account_identifier"] as? String)
        let reply = try await api.post(
            "/v1/mobile/cards/\(cardID)/provisioning/apple-pay", token: mobileToken,
            json: [
                "certificates": session.certificatesBase64, "nonce": session.nonce.base64EncodedString(),
                "nonce_signature": session.nonceSignature.base64EncodedString(), "device_type": kind.deviceType.rawValue,
            ])
        guard reply.status == 200, let json = reply.json else {
            return (
                session, .failure(ProvisioError(.internalError, "Provisio refused: \(reply.errorCode ?? "HTTP \(reply.status)")"))
            )
        }
        var response = ApplePayloadResponse(
            sealed: SealedPassData(encryptedPassData: Data(), keyMaterial: .wrappedKey(Data())), activationData: "")
        response.encryptedPassData = json["encrypted_pass_data"] as? String ?? ""
        response.activationData = json["activation_data"] as? String ?? ""
        response.ephemeralPublicKey = json["ephemeral_public_key"] as? String
        response.wrappedKey = json["wrapped_key"] as? String
        do {
            return (session, .success(try await apple.submit(sessionID: session.id, response: response, scheme: .eccV2)))
        } catch let error as ProvisioError {
            return (session, .failure(error))
        }
    }

    /// The issuer's view of a card's tokens.
    func tokens(cardID: String) async throws -> [[String: Any]] {
        try await api.get("/v1/tokens?card_id=\(cardID)", token: apiKey).json?["data"] as? [[String: Any]] ?? []
    }
}
