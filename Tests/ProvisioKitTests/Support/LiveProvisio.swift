#if os(Linux)
    import Crypto
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Logging
    // ProvisioAPI and OpenAPIAsyncHTTPClient come in through ProvisioServer (OpenAPIRuntime through
    // ProvisioClient); Package.swift does not list them for this target yet.
    import OpenAPIAsyncHTTPClient
    import OpenAPIRuntime
    import ProvisioAPI
    import ProvisioClient
    import ProvisioCore
    import ProvisioCrypto
    import ProvisioSandbox
    import ProvisioServer

    /// A real Provisio on loopback (SQLite in a temporary directory), with the sandbox CA trusted,
    /// a tenant, a customer's card and a mobile session for it; and the sandbox's wallet, Apple
    /// service and card network, the network reaching Provisio over HTTP with its network key, and
    /// Provisio reaching the network through its connector API (the tenant's network settings).
    /// (Minimal copy of Tests/ProvisioServerTests' TestServer and SandboxNetworkHarness setup.)
    struct LiveProvisio: Sendable {
        /// One sandbox CA for the run (RSA key generation is slow).
        static let sandboxCA = try! SandboxCertificateAuthority.generate(profile: SandboxCAProfile(now: Date()))
        static let pan = "4111111111111111"

        let baseURL: URL
        let apiKey: String
        let cardID: String
        let mobileSession: String
        let wallet: SandboxWallet
        let network: SandboxNetworkTokenService
        let apple: SandboxAppleProvisioningService
        /// The network's connector API, as Provisio calls it for the tenant's token changes.
        let connector: LiveNetworkConnector
        /// Creates another tenant on the same server, with its own customer, card, mobile session
        /// and network key, and a sandbox network and Apple service for it over the same wallet.
        let addTenant: @Sendable (_ name: String, _ customerRef: String, _ pan: String) async throws -> LiveTenant

        static func run<T: Sendable>(watch: Bool = true, _ body: @Sendable (LiveProvisio) async throws -> T) async throws -> T {
            let directory = NSTemporaryDirectory() + "provisio-kit-test-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var logger = Logger(label: "provisio-kit-test")
            logger.logLevel = .critical
            let handle = try await DatabaseConnector.connect(.sqlite(path: directory + "/provisio.sqlite"), logger: logger)
            do {
                try await Migrator(handle: handle).migrate()
                let keys = ProvisioKeys.generate()
                let clock = SystemTimeSource()
                let services = ServerServices(
                    handle: handle, keys: keys,
                    chainValidator: CachingChainValidator(validator: .production(additionalAnchors: [sandboxCA.root])),
                    networkKey: P256.KeyAgreement.PrivateKey().publicKey, networkKeyID: "net-test", clock: clock)
                let app = ProvisioHTTPApplication.make(services: services, host: "127.0.0.1", port: 0, logger: logger)
                let result = try await app.test(.live) { client in
                    guard let port = client.port else { throw SetupError("the live server has no port") }
                    let baseURL = URL(string: "http://127.0.0.1:\(port)")!
                    let (tenant, apiKey) = try await services.access.createTenant(name: "Kit Bank")
                    let issuer = Self.api(baseURL, apiKey)
                    let cardID = try await issuer.createCard(
                        body: .json(
                            .init(
                                customerRef: "cust_kit", pan: pan, expiryMonth: 12, expiryYear: 2030,
                                cardholderName: "Jane Appleseed"))
                    ).created.body.json.id
                    let mobileSession = try await issuer.createMobileSession(body: .json(.init(customerRef: "cust_kit")))
                        .created.body.json.token
                    let networkKey = try await services.access.createNetworkKey(tenantID: tenant.id)
                    let wallet = SandboxWallet(
                        certificateAuthority: sandboxCA, clock: clock,
                        watchSecureElement: watch ? SandboxSecureElement() : nil)
                    let network = SandboxNetworkTokenService(
                        wallet: wallet, issuer: IssuerConnection(baseURL: baseURL.absoluteString, networkKey: networkKey),
                        issuerTAVPublicKey: keys.tavSigningKey.publicKey, clock: clock,
                        defaultRisk: RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .approve))
                    let apple = SandboxAppleProvisioningService(wallet: wallet, network: network)
                    let connector = try await LiveNetworkConnector.serve(network: network)
                    defer { connector.stop() }
                    _ = try await issuer.setNetworkSettings(body: .json(.init(url: connector.url, apiKey: connector.apiKey))).ok
                    let addTenant: @Sendable (String, String, String) async throws -> LiveTenant = { name, customerRef, pan in
                        let (tenant, apiKey) = try await services.access.createTenant(name: name)
                        let issuer = Self.api(baseURL, apiKey)
                        let cardID = try await issuer.createCard(
                            body: .json(
                                .init(
                                    customerRef: customerRef, pan: pan, expiryMonth: 11, expiryYear: 2031,
                                    cardholderName: "John Appleseed"))
                        ).created.body.json.id
                        let mobileSession = try await issuer.createMobileSession(body: .json(.init(customerRef: customerRef)))
                            .created.body.json.token
                        let networkKey = try await services.access.createNetworkKey(tenantID: tenant.id)
                        let network = SandboxNetworkTokenService(
                            wallet: wallet, issuer: IssuerConnection(baseURL: baseURL.absoluteString, networkKey: networkKey),
                            issuerTAVPublicKey: keys.tavSigningKey.publicKey, clock: clock,
                            defaultRisk: RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .approve))
                        return LiveTenant(
                            apiKey: apiKey, customerRef: customerRef, cardID: cardID, mobileSession: mobileSession,
                            apple: SandboxAppleProvisioningService(wallet: wallet, network: network))
                    }
                    return try await body(
                        LiveProvisio(
                            baseURL: baseURL, apiKey: apiKey, cardID: cardID, mobileSession: mobileSession, wallet: wallet,
                            network: network, apple: apple, connector: connector, addTenant: addTenant))
                }
                await handle.shutdown()
                return result
            } catch {
                await handle.shutdown()
                throw error
            }
        }

        /// Provisio's generated client, sending `token` as its bearer credential.
        static func api(_ baseURL: URL, _ token: String) -> Client {
            Client(
                serverURL: baseURL, transport: AsyncHTTPClientTransport(),
                middlewares: [BearerCredentialMiddleware(token: token)])
        }

        /// Another customer of the same tenant, with a card of their own: a mobile session for them.
        func otherCustomerSession(_ customerRef: String = "cust_other") async throws -> String {
            let issuer = Self.api(baseURL, apiKey)
            _ = try await issuer.createCard(
                body: .json(
                    .init(
                        customerRef: customerRef, pan: "5555555555554444", expiryMonth: 10, expiryYear: 2031,
                        cardholderName: "John Appleseed"))
            ).created
            return try await issuer.createMobileSession(body: .json(.init(customerRef: customerRef))).created.body.json.token
        }

        /// A provision token for the card (what the issuer's backend pushes to the Wallet extension).
        func provisionToken() async throws -> String {
            try await Self.api(baseURL, apiKey).createProvisionToken(body: .json(.init(cardId: cardID, wallet: .applePay)))
                .created.body.json.provisionToken
        }

        /// The issuer backend's view of the card's tokens (`GET /v1/tokens?card_id=`).
        func issuerTokens() async throws -> [Components.Schemas.Token] {
            try await Self.api(baseURL, apiKey).listTokens(query: .init(cardId: cardID)).ok.body.json.data
        }

        /// What Provisio recorded of each Apple Pay payload asked for the card, oldest first: the
        /// scheme it sealed for and the device it was told (`GET /v1/cards/{id}/provisioning-attempts`).
        func provisioningAttempts() async throws -> [Components.Schemas.ProvisioningAttempt] {
            try await Self.api(baseURL, apiKey).listProvisioningAttempts(path: .init(id: cardID)).ok.body.json.data
        }

        /// A TAV for a token pending verification (`POST /v1/tokens/{id}/activation {mode: tav}`).
        func activationData(tokenID: String) async throws -> String {
            let result = try await Self.api(baseURL, apiKey).activateToken(
                path: .init(id: tokenID), body: .json(.init(mode: .tav))
            )
            .ok.body.json
            guard let data = result.activationData else { throw SetupError("no activation data") }
            return data
        }
    }

    /// A further tenant of the live server (see `LiveProvisio.addTenant`).
    struct LiveTenant: Sendable {
        let apiKey: String
        let customerRef: String
        let cardID: String
        let mobileSession: String
        /// Apple's service reaching the card network that holds this tenant's network key.
        let apple: SandboxAppleProvisioningService
    }

    struct SetupError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
#endif
