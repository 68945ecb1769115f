import ArgumentParser
import Foundation
import Logging
import ProvisioCore
import ProvisioServer
import ServiceLifecycle

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Provisio server (SQLite by default, PostgreSQL for scale-out).",
        discussion: """
            Environment: PROVISIO_DATABASE_URL, PROVISIO_TRUST_ANCHORS (comma-separated PEM paths), PROVISIO_KEYS_DIR,
            PROVISIO_NETWORK_KEY, PROVISIO_NETWORK_URL,
            PROVISIO_NETWORK_API_KEY, PROVISIO_ENV=production. Flags win over the environment.
            Stops gracefully on SIGTERM and SIGINT.
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

            let services = try await ServerAssembly.assemble(configuration, logger: logger)
            let host = configuration.host
            let database = configuration.database
            let announcer = logger
            let app = ProvisioHTTPApplication.make(
                services: services, host: host, port: configuration.port, logger: logger,
                onListening: { bound in announcer.info("Provisio listening on http://\(host):\(bound), database \(database)") })
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        .init(service: app),
                        .init(service: IdempotencyPurgeService(store: services.store, clock: services.clock, logger: logger)),
                        .init(service: services.webhookWorker(logger: logger)),
                    ],
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
