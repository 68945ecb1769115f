import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import OpenAPIRuntime
import ProvisioHTTP
import ProvisioJSON

/// Builds the Hummingbird application: routes, middleware, and the outer responder.
public enum ProvisioHTTPApplication {
    public static func router(services: ServerServices) -> Router<ProvisioRequestContext> {
        let router = Router(context: ProvisioRequestContext.self)
        router.add(middleware: WireErrorMiddleware(dialect: .provisio))
        let idempotency = IdempotencyMiddleware(
            store: services.store, vault: services.vault, digester: services.requestDigester, clock: services.clock,
            lease: services.idempotencyLease)
        let issuer = router.group("v1")
            .add(middleware: BearerAuthenticationMiddleware(access: services.access, audience: .issuerBackend))
            .add(middleware: idempotency)
        let network = router.group("v1/network")
            .add(middleware: BearerAuthenticationMiddleware(access: services.access, audience: .network))
            .add(middleware: idempotency)
        let mobile = router.group("v1/mobile")
            .add(middleware: BearerAuthenticationMiddleware(access: services.access, audience: .mobile))
            .add(middleware: idempotency)
        // The operations of openapi.yaml, through the generated server code, each behind its
        // audience's authentication; their bodies are read within the limits and held to the
        // strict JSON rules first, and the handler sees the request's scope.
        func api(_ group: RouterGroup<ProvisioRequestContext>) -> RouterGroup<ProvisioRequestContext> {
            group.group().add(middleware: StrictBodyMiddleware(dialect: .provisio)).add(middleware: RequestScopeMiddleware())
        }
        let transport = AudienceTransport(
            open: api(router.group()), issuer: api(issuer), network: api(network), mobile: api(mobile))
        do {
            // Compact JSON with sorted keys and unescaped slashes, as every answer of the wire.
            try ProvisioAPIHandler(services: services).registerHandlers(
                on: transport, configuration: WireCoding.openAPIConfiguration)
        } catch {
            // Registering only adds routes; it throws for a document the generator could not
            // have produced.
            preconditionFailure("The generated operations could not be registered: \(error)")
        }
        do {
            // The support console, on the same server and services.
            let console = ConsoleRoutes(
                services: services, pages: try ConsolePages(),
                credentials: ConsoleCredentials(secureCookies: services.secureConsoleCookies),
                behindProxy: services.behindTLSProxy)
            console.register(on: router)
        } catch {
            // The templates ship in the server's bundle; without them the build is broken.
            preconditionFailure("The console's templates could not be loaded: \(error)")
        }
        return router
    }

    /// `onListening` receives the bound port (useful with port 0).
    public static func make(
        services: ServerServices, host: String, port: Int, limits: HTTPLimits = .standard, tls: TLSCredentials? = nil,
        logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = router(services: services)
        let overTLS = tls != nil || services.behindTLSProxy
        let responder = StrictTransportSecurityResponder(
            inner: ProvisioResponder(
                inner: router.buildResponder(), metrics: services.metrics, methods: RouteMethods(router.routes), limits: limits),
            enabled: overTLS)
        var decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        decoder.maxHeaderListSize = limits.maximumHeaderBytes
        decoder.maxHeaderFieldSize = limits.maximumHeaderBytes
        decoder.maxHeaderFieldCount = limits.maximumHeaderCount
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionGuardHandler(strictTransportSecurity: overTLS)],
            idleTimeout: TimeAmount(limits.idleTimeout),
            httpDecoderConfiguration: decoder)
        return Application(
            responder: responder,
            server: HTTPServerBuilder { responder in
                let plain = HTTP1Channel(responder: responder, configuration: http1)
                guard let tls else { return plain }
                return ReloadableTLSChannel(base: plain, credentials: tls)
            },
            configuration: .init(
                address: .hostname(host, port: port), serverName: "Provisio",
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maximumConnections, logger: logger)),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
