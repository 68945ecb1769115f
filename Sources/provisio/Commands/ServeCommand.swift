import ArgumentParser
import Foundation
import Logging
import ProvisioCore
import ProvisioOutbound
import ProvisioServer
import ServiceLifecycle

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Provisio server (SQLite by default, PostgreSQL for scale-out).",
        discussion: """
            Environment: PROVISIO_DATABASE_URL, PROVISIO_TRUST_ANCHORS (comma-separated PEM paths), PROVISIO_KEYS_DIR,
            PROVISIO_NETWORK_KEY, PROVISIO_NETWORK_URL,
            PROVISIO_NETWORK_API_KEY, PROVISIO_OUTBOUND_ALLOW, PROVISIO_TLS_CERT, PROVISIO_TLS_KEY,
            PROVISIO_BEHIND_TLS_PROXY=true, PROVISIO_IDEMPOTENCY_LEASE_SECONDS, PROVISIO_MDES_PORT, PROVISIO_MDES_TLS_CERT,
            PROVISIO_MDES_TLS_KEY, PROVISIO_MDES_CLIENT_CA, PROVISIO_ENV=production,
            PROVISIO_ALLOW_TEST_TRUST_ANCHORS=true, PROVISIO_ALLOW_PLAINTEXT_DATABASE=true,
            PROVISIO_ALLOW_DEVELOPMENT_NETWORK=true.
            Flags win over the environment. Stops gracefully on SIGTERM and SIGINT; SIGHUP reloads the
            TLS certificate and key and the vault keys (whose file is also checked every 30 s).
            """
    )

    @Option(name: .long, help: "Address to listen on.") var host: String?
    @Option(name: .long, help: "Port to listen on.") var port: Int?
    @Option(name: .long, help: "An SQLite file path or a postgres:// URL (default ./provisio.sqlite).") var database: String?
    @Option(name: .long, help: "Key directory (default ./provisio-keys; created in development mode).") var keys: String?
    @Option(name: .customLong("trust-anchor"), help: "A PEM root trusted in addition to Apple Root CA - G3 (repeatable).")
    var trustAnchors: [String] = []
    @Option(name: .customLong("network-key"), help: "PEM of the card network's P-256 encryption key (Google/Samsung Pay).")
    var networkKey: String?
    @Option(name: .customLong("network-url"), help: "The card network's connector API (e.g. provisio sandbox serve).")
    var networkURL: String?
    @Option(name: .customLong("network-api-key"), help: "The key Provisio presents to the card network's connector API.")
    var networkAPIKey: String?
    @Flag(name: .long, help: "Refuse to create missing key material.") var production = false
    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain: serve HTTPS (reloaded on SIGHUP).")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key of --tls-cert (mode 0600).") var tlsKey: String?
    @Option(name: .customLong("mdes-port"), help: "Serve MDES's Issuer Outbound API on this port (mutual TLS only).")
    var mdesPort: Int?
    @Option(name: .customLong("mdes-tls-cert"), help: "PEM certificate chain of the MDES listener.")
    var mdesTLSCertificate: String?
    @Option(name: .customLong("mdes-tls-key"), help: "PEM private key of --mdes-tls-cert (mode 0600).")
    var mdesTLSKey: String?
    @Option(name: .customLong("mdes-client-ca"), help: "PEM of the CA whose client certificates the MDES listener takes.")
    var mdesClientCA: String?
    @Flag(name: .customLong("behind-tls-proxy"), help: "A TLS-terminating proxy is in front (production, plain HTTP).")
    var behindTLSProxy = false
    @Option(
        name: .customLong("outbound-allow"),
        help: "An internal CIDR range webhooks and network connectors may reach (repeatable, comma-separated).")
    var outboundAllow: [String] = []
    @Flag(
        name: .customLong("allow-test-trust-anchors"),
        help: "In production, accept --trust-anchor roots (a test environment; logged at start).")
    var allowTestTrustAnchors = false
    @Flag(
        name: .customLong("allow-plaintext-database"),
        help: "In production, reach PostgreSQL off loopback without sslmode=require.")
    var allowPlaintextDatabase = false
    @Flag(
        name: .customLong("allow-development-network"),
        help: "In development mode, listen beyond loopback (plain HTTP, keys created on the fly).")
    var allowDevelopmentNetwork = false
    @Option(
        name: .customLong("idempotency-lease-seconds"),
        help: "How long a crashed request's Idempotency-Key blocks a retry (default 30).")
    var idempotencyLease: String?

    func run() async throws {
        var logger = Logger(label: "provisio")
        logger.logLevel = .info
        try await runReportingErrorsAsync {
            var configuration = ServerConfiguration()
            try configuration.apply(environment: ProcessInfo.processInfo.environment)
            if let host { configuration.host = host }
            if let port { configuration.port = port }
            if let database { configuration.database = try DatabaseLocation(database) }
            if let keys { configuration.keysDirectory = keys }
            if !trustAnchors.isEmpty { configuration.extraTrustAnchorFiles = trustAnchors }
            if let networkKey { configuration.networkKeyFile = networkKey }
            if let networkURL { configuration.networkURL = networkURL }
            if let networkAPIKey { configuration.networkAPIKey = networkAPIKey }
            if production { configuration.production = true }
            if let tlsCertificate { configuration.tlsCertificateFile = tlsCertificate }
            if let tlsKey { configuration.tlsKeyFile = tlsKey }
            if behindTLSProxy { configuration.behindTLSProxy = true }
            if let mdesPort { configuration.mdesPort = mdesPort }
            if let mdesTLSCertificate { configuration.mdesTLSCertificateFile = mdesTLSCertificate }
            if let mdesTLSKey { configuration.mdesTLSKeyFile = mdesTLSKey }
            if let mdesClientCA { configuration.mdesClientCAFile = mdesClientCA }
            if allowTestTrustAnchors { configuration.allowTestTrustAnchors = true }
            if allowPlaintextDatabase { configuration.allowPlaintextDatabase = true }
            if allowDevelopmentNetwork { configuration.allowDevelopmentNetwork = true }
            if !outboundAllow.isEmpty {
                configuration.outboundAllowList = try OutboundPolicy.parseAllowList(outboundAllow.joined(separator: ","))
            }
            if let idempotencyLease { configuration.idempotencyLease = try ServerConfiguration.leaseDuration(idempotencyLease) }

            let services = try await ServerAssembly.assemble(configuration, logger: logger)
            let tls = try configuration.tlsCertificateFile.map {
                try TLSCredentials(certificateFile: $0, keyFile: configuration.tlsKeyFile ?? "")
            }
            let host = configuration.host
            let database = configuration.database
            let scheme = tls == nil ? "http" : "https"
            let announcer = logger
            let app = ProvisioHTTPApplication.make(
                services: services, host: host, port: configuration.port, limits: configuration.httpLimits, tls: tls,
                logger: logger,
                onListening: { bound in announcer.info("Provisio listening on \(scheme)://\(host):\(bound), database \(database)")
                })
            var members: [ServiceGroupConfiguration.ServiceConfiguration] = [
                .init(service: app),
                .init(service: IdempotencyPurgeService(store: services.store, clock: services.clock, logger: logger)),
                .init(service: services.webhookWorker(logger: logger)),
                .init(service: services.tokenChangeWorker(logger: logger)),
            ]
            if let tls { members.append(.init(service: TLSReloadService(credentials: tls, logger: logger))) }
            if let mdes = try configuration.mdesListener() {
                // MDES's own listener: mutual TLS always, its certificate reloaded on SIGHUP too.
                let mdesTLS = try mdes.credentials()
                let mdesApp = MDESHTTPApplication.make(
                    services: services, host: host, port: mdes.port, tls: mdesTLS, limits: configuration.httpLimits,
                    logger: logger,
                    onListening: { bound in announcer.info("MDES Issuer Outbound API on https://\(host):\(bound) (mutual TLS)") })
                members.append(.init(service: mdesApp))
                members.append(.init(service: TLSReloadService(credentials: mdesTLS, logger: logger)))
            }
            members.append(
                .init(
                    service: await VaultKeysWatch.service(
                        services: services, keysDirectory: configuration.keysDirectory, logger: logger)))
            members += ParentWatchService.groupMembers(logger: logger)
            let group = ServiceGroup(
                configuration: .init(
                    services: members,
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger))
            do {
                try await group.run()
            } catch {
                await services.handle.shutdown()
                throw error
            }
            await services.handle.shutdown()
        }
    }
}
