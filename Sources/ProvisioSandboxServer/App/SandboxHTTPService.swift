import Hummingbird
import Logging
import ProvisioSandbox

/// The sandbox counterparty as its own HTTP service (`provisio sandbox serve`), so Provisio and
/// the issuer's tooling reach it the way they will reach the real Apple and card network: over
/// the wire, with a key.
///
/// - `/network/v1/…`: the network's connector API, what Provisio calls to suspend, resume or
///   delete a token, or to activate one after customer-service verification.
/// - `/sandbox/v1/…`: the control API, what a test or the demo does as the cardholder and
///   their devices (`SandboxClient` speaks it).
///
/// Every route needs `Authorization: Bearer <apiKey>`, except the CA root (public anyway).
public enum SandboxHTTPService {
    /// Requests are small JSON objects; the largest is an add-card submission.
    public static let maximumBodyBytes = 256 * 1024

    public static func router(world: SandboxHTTPWorld, apiKey: String) -> Router<SandboxRequestContext> {
        precondition(!apiKey.isEmpty, "The sandbox service needs a non-empty API key.")
        let router = Router(context: SandboxRequestContext.self)
        router.add(middleware: SandboxErrorMiddleware())
        // Before authentication: an operator fetches the root to make Provisio trust it.
        CertificateAuthorityRoutes(certificateAuthority: world.certificateAuthority).register(on: router)
        // Router-wide, so unknown routes are answered 401 before 404 and reveal nothing.
        router.add(middleware: SandboxAuthenticationMiddleware(apiKey: apiKey))
        ConnectorRoutes(network: world.network).register(on: router.group("network/v1"))
        let control = router.group("sandbox/v1")
        AddCardRoutes(world: world).register(on: control)
        PassRoutes(wallet: world.wallet).register(on: control)
        RiskRoutes(network: world.network).register(on: control)
        TokenRoutes(network: world.network).register(on: control)
        return router
    }

    /// The application, listening on `host:port`; `onListening` receives the bound port (useful
    /// with port 0).
    public static func make(
        world: SandboxHTTPWorld, host: String, port: Int, apiKey: String, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(world: world, apiKey: apiKey),
            configuration: .init(address: .hostname(host, port: port), serverName: "Provisio-Sandbox"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
