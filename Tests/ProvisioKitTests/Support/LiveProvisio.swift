#if os(Linux)
    import Crypto
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Logging
    import ProvisioCore
    import ProvisioCrypto
    import ProvisioSandbox
    import ProvisioServer

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A real Provisio on loopback (SQLite in a temporary directory), with the sandbox CA trusted,
    /// a tenant, a customer's card and a mobile session for it; and the sandbox's wallet, Apple
    /// service and card network, the network reaching Provisio over HTTP with its network key.
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
                    let card = try await Self.post(
                        baseURL, "/v1/cards", token: apiKey,
                        json: [
                            "customer_ref": "cust_kit", "pan": pan, "expiry_month": 12, "expiry_year": 2030,
                            "cardholder_name": "Jane Appleseed",
                        ])
                    guard let cardID = card["id"] as? String else { throw SetupError("no card id") }
                    let session = try await Self.post(
                        baseURL, "/v1/mobile-sessions", token: apiKey, json: ["customer_ref": "cust_kit"])
                    guard let mobileSession = session["token"] as? String else { throw SetupError("no mobile session") }
                    let networkKey = try await services.access.createNetworkKey(tenantID: tenant.id)
                    let wallet = SandboxWallet(
                        certificateAuthority: sandboxCA, clock: clock,
                        watchSecureElement: watch ? SandboxSecureElement() : nil)
                    let network = SandboxNetworkTokenService(
                        wallet: wallet, issuer: IssuerConnection(baseURL: baseURL.absoluteString, networkKey: networkKey),
                        issuerTAVPublicKey: keys.tavSigningKey.publicKey, clock: clock,
                        defaultRisk: RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .approve))
                    let apple = SandboxAppleProvisioningService(wallet: wallet, network: network)
                    return try await body(
                        LiveProvisio(
                            baseURL: baseURL, apiKey: apiKey, cardID: cardID, mobileSession: mobileSession, wallet: wallet,
                            network: network, apple: apple))
                }
                await handle.shutdown()
                return result
            } catch {
                await handle.shutdown()
                throw error
            }
        }

        /// The issuer backend's view of the card's tokens (`GET /v1/tokens?card_id=`).
        func issuerTokens() async throws -> [[String: Any]] {
            let json = try await Self.send(baseURL, "GET", "/v1/tokens?card_id=\(cardID)", token: apiKey, body: nil)
            return json["data"] as? [[String: Any]] ?? []
        }

        static func post(_ baseURL: URL, _ path: String, token: String, json: [String: Any]) async throws -> [String: Any] {
            try await send(baseURL, "POST", path, token: token, body: try JSONSerialization.data(withJSONObject: json))
        }

        static func send(_ baseURL: URL, _ method: String, _ path: String, token: String, body: Data?) async throws
            -> [String: Any]
        {
            var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
            request.httpMethod = method
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let (data, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard (200..<300).contains(status), let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw SetupError("\(method) \(path): HTTP \(status) \(String(decoding: data, as: UTF8.self))")
            }
            return json
        }
    }

    struct SetupError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
#endif
