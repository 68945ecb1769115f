import Hummingbird
import Logging
import ProvisioHTTP
import ProvisioJSON
import ProvisioSandbox
import ProvisioSandboxAPI

/// The sandbox counterparty as its own HTTP service (`provisio sandbox serve`), so Provisio and
/// the issuer's tooling reach it the way they will reach the real Apple and card network: over
/// the wire, with a key. Its contract is `Resources/sandbox-openapi.yaml` (served at
/// `/openapi.yaml`); the service implements the protocol generated from it (`ProvisioSandboxAPI`)
/// on the HTTP stack Provisio's server uses (`ProvisioHTTP`).
///
/// - `/network/v1/…`: the network's connector API in the Provisio dialect, what Provisio calls
///   to suspend, resume or delete a token, carry a reissued card's details, or activate one
///   after customer-service verification. Its contract is a document of its own
///   (`network-connector-openapi.yaml`), which `SandboxConnectorHandler` implements.
/// - `/sandbox/v1/…`: the control API, what a test or the demo does as the cardholder and
///   their devices (`SandboxClient` speaks it). Google Wallet's and Samsung Wallet's parts of
///   it (`/sandbox/v1/google-wallet/…`, `/sandbox/v1/samsung-wallet/…`) have documents of their
///   own (`sandbox-google-wallet-openapi.yaml`, `sandbox-samsung-wallet-openapi.yaml`, served at
///   `/openapi/google-wallet.yaml` and `/openapi/samsung-wallet.yaml`), which
///   `SandboxGoogleWalletHandler` and `SandboxSamsungWalletHandler` implement.
/// - `/mdes/csapi/v2/…`, with `oauthVerifier` only (`--network mdes`): MDES's Customer Service
///   API, what Provisio calls in the MDES dialect (`SandboxMDESCustomerServiceHandler`); its token
///   update needs `mastercardKey`, the key pair the issuer encrypts a reissued card's details for.
///
/// Every operation needs `Authorization: Bearer <apiKey>`, except the CA root and the document,
/// and the Customer Service API, which authenticates the issuer by its OAuth 1.0a signature.
public enum SandboxHTTPService {
    /// Requests are small JSON objects; the largest is an add-card submission.
    public static let maximumBodyBytes = PlainRequestContext.maximumBodyBytes

    /// The operations anyone may call (`security: []` in the document): the CA root an operator
    /// fetches to make Provisio trust it, and the document itself.
    static let publicPaths: Set<String> = [
        "/sandbox/v1/ca/root.pem", "/openapi.yaml", "/openapi/google-wallet.yaml", "/openapi/samsung-wallet.yaml",
    ]

    /// The query parameters each operation takes; every other takes none.
    static let queryParameters: [String: Set<String>] = [
        "/sandbox/v1/passes": ["device", "primary_account_identifier", "app_identifier"]
    ]

    static func router(
        world: SandboxHTTPWorld, apiKey: String, oauthVerifier: SandboxOAuthVerifier? = nil,
        mastercardKey: SandboxMastercardEncryptionKey? = nil, logger: Logger
    ) -> Router<PlainRequestContext> {
        precondition(!apiKey.isEmpty, "The sandbox service needs a non-empty API key.")
        let router = Router(context: PlainRequestContext.self)
        router.add(middleware: WireErrorMiddleware(dialect: .sandbox))
        // Bodies are read within the limits and held to the strict JSON rules, queries to the
        // declared names, before the generated code sees them.
        let open = router.group()
            .add(middleware: StrictQueryMiddleware(parameters: queryParameters, dialect: .sandbox))
            .add(middleware: StrictBodyMiddleware(dialect: .sandbox))
        let keyed = router.group().add(middleware: BearerAuthenticationMiddleware(sandboxKey: apiKey))
            .add(middleware: StrictQueryMiddleware(parameters: queryParameters, dialect: .sandbox))
            .add(middleware: StrictBodyMiddleware(dialect: .sandbox))
        let mdes = oauthVerifier.map { verifier in
            router.group().add(
                middleware: SandboxMDESGatewayMiddleware(
                    verifier: verifier, nonces: OAuthNonceLedger(), clock: world.wallet.clock, logger: logger))
        }
        let transport = RoutedTransport<PlainRequestContext> { _, path in
            if let mdes, path.hasPrefix(SandboxMDESCustomerServiceHandler.basePath + "/") { return (mdes, path) }
            return (publicPaths.contains(path) ? open : keyed, path)
        }
        do {
            try SandboxAPIHandler(world: world, logger: logger).registerHandlers(
                on: transport, configuration: WireCoding.openAPIConfiguration)
            try SandboxConnectorHandler.register(world: world, logger: logger, on: transport)
            try SandboxGoogleWalletHandler.register(world: world, logger: logger, on: transport)
            try SandboxSamsungWalletHandler.register(world: world, logger: logger, on: transport)
            if mdes != nil {
                try SandboxMDESCustomerServiceHandler.register(
                    world: world, decrypter: try mastercardKey?.decrypter(), logger: logger, on: transport)
            }
        } catch {
            // Registering only adds routes; it throws for a document the generator could not
            // have produced.
            preconditionFailure("The generated operations could not be registered: \(error)")
        }
        // Router-wide, after every route, so an unknown route is answered 401 before 404 and
        // reveals nothing to a caller without the key.
        router.add(middleware: BearerAuthenticationMiddleware(sandboxKey: apiKey))
        return router
    }

    /// The application, listening on `host:port`; `onListening` receives the bound port (useful
    /// with port 0). `oauthVerifier` (the issuer's OAuth public key) turns on MDES's Customer
    /// Service API, and `mastercardKey` its token update.
    public static func make(
        world: SandboxHTTPWorld, host: String, port: Int, apiKey: String, oauthVerifier: SandboxOAuthVerifier? = nil,
        mastercardKey: SandboxMastercardEncryptionKey? = nil, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(
                world: world, apiKey: apiKey, oauthVerifier: oauthVerifier, mastercardKey: mastercardKey, logger: logger),
            configuration: .init(address: .hostname(host, port: port), serverName: "Provisio-Sandbox"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
