import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ProvisioHTTP

/// The MDES Issuer Outbound listener: its own port, always mutual TLS (`TLSCredentials` with a
/// client CA), its own router. Only it serves `/mdes/…`; the main listener has no such route.
public enum MDESHTTPApplication {
    public static func router(services: ServerServices) -> Router<MDESRequestContext> {
        let router = Router(context: MDESRequestContext.self)
        let store = SQLProvisioStore(handle: services.handle)
        router.add(
            middleware: MDESExchangeMiddleware(
                store: store, digester: services.mdesDigester, clock: services.clock, lease: 30))
        let handler = MDESIssuerHandler(
            service: MDESIssuerService(
                tokens: services.tokens, keys: MDESKeyService(store: store, vault: services.vault, clock: services.clock),
                exchanges: store, otpRelay: services.otpRelay, digester: services.mdesDigester, clock: services.clock))
        let transport = RoutedTransport<MDESRequestContext>(route: { _, path in (router.group(), path) })
        do {
            try handler.registerHandlers(on: transport, configuration: WireCoding.openAPIConfiguration)
        } catch {
            // Registering only adds routes; it throws for a document the generator could not have produced.
            preconditionFailure("The MDES operations could not be registered: \(error)")
        }
        return router
    }

    /// `onListening` receives the bound port (useful with port 0).
    public static func make(
        services: ServerServices, host: String, port: Int, tls: TLSCredentials, limits: HTTPLimits = .standard,
        logger: Logger, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        decoder.maxHeaderListSize = limits.maximumHeaderBytes
        decoder.maxHeaderFieldSize = limits.maximumHeaderBytes
        decoder.maxHeaderFieldCount = limits.maximumHeaderCount
        let http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(limits.idleTimeout), httpDecoderConfiguration: decoder)
        return Application(
            router: router(services: services),
            server: HTTPServerBuilder { responder in
                ReloadableTLSChannel(base: HTTP1Channel(responder: responder, configuration: http1), credentials: tls)
            },
            configuration: .init(
                address: .hostname(host, port: port), serverName: "Provisio MDES",
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maximumConnections, logger: logger)),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
