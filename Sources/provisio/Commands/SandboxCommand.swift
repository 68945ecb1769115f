import ArgumentParser
import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxServer
import ServiceLifecycle

struct SandboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "The sandbox counterparty (Apple Wallet, Apple's provisioning service, the card network).",
        subcommands: [CA.self, Serve.self]
    )

    struct CA: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ca",
            abstract: "Generate an Apple-like provisioning PKI: root.pem, chain.json, leaf-key.pem (+ RSA_V2 variants).")

        @Option(name: .long, help: "Directory to write the files to.")
        var out: String

        func run() throws {
            try runReportingErrors {
                let ca = try SandboxCertificateAuthority.generate(profile: SandboxCAProfile(now: Date()))
                try SandboxCADirectory.write(ca, to: out)
                // The network's OPC key too, so Provisio can be started with it before the sandbox.
                _ = try SandboxOPCKey.loadOrGenerate(in: out)
                _ = try SandboxGoogleKey.loadOrGenerate(in: out, at: Date())
                print(
                    """
                    Wrote the sandbox CA to \(out): \(SandboxCADirectory.files.joined(separator: ", ")), and the network's \
                    opaque-payment-card key (\(SandboxOPCKey.privateKeyFile), \(SandboxOPCKey.publicKeyFile)), and Google \
                    Wallet's OpenPGP key (\(SandboxGoogleKey.privateKeyFile), \(SandboxGoogleKey.publicKeyFile)).
                    Trust it with: provisio apple-payload --keys DIR --trust-anchor \((out as NSString).appendingPathComponent("root.pem"))
                    Give Provisio the network's key with: provisio serve --network-key \((out as NSString).appendingPathComponent(SandboxOPCKey.publicKeyFile))
                    """)
            }
        }
    }

    /// The sandbox as its own HTTP service: an iPhone and paired Watch, Apple's provisioning
    /// service and the card network, which reaches the issuer's Provisio over HTTP with its
    /// network key, as a real network would.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Run the sandbox counterparty as an HTTP service (control API and the network's connector API).",
            discussion: """
                Control API under /sandbox/v1 (what a test or demo does as the cardholder), connector API under
                /network/v1 (what Provisio calls). Every request needs Authorization: Bearer <api key>, except
                GET /sandbox/v1/ca/root.pem. Environment: PROVISIO_SANDBOX_NETWORK_KEY, PROVISIO_SANDBOX_API_KEY;
                flags win. Stops gracefully on SIGTERM and SIGINT. Bad flags: exit status 2 and one line
                `error: <code>: <message>` on standard error.

                --network mdes: the card network speaks Mastercard MDES instead. It calls the issuer's MDES
                listener (--mdes-issuer-url) over mutual TLS (--mdes-client-cert, --mdes-client-key, --mdes-server-ca),
                encrypting card data for the issuer's key (--mdes-issuer-public-key), and serves MDES's Customer
                Service API under /mdes/csapi, checking each call's OAuth 1.0a signature (--mdes-oauth-public-key).
                It plays Mastercard's encryption key too: the pair is kept in --ca-dir
                (mdes-mastercard-encryption.pem, made at the first start), and that certificate is the issuer's
                mastercard_encryption_certificate_pem. --issuer-url and --network-key are then not used.

                The card network's key for opaque payment cards (the Google Pay and Samsung Pay push data Provisio
                builds) is kept in --ca-dir too (network-opc-key.pem, made at the first start or by `sandbox ca`);
                give Provisio network-opc-public-key.pem as `provisio serve --network-key`.
                """
        )

        static let networkKeyVariable = "PROVISIO_SANDBOX_NETWORK_KEY"
        static let apiKeyVariable = "PROVISIO_SANDBOX_API_KEY"

        @Option(name: .long, help: "Address to listen on.") var host = "127.0.0.1"
        @Option(name: .long, help: "Port to listen on (0 picks a free one).") var port = 8090
        @Option(name: .customLong("issuer-url"), help: "Provisio's base URL, e.g. http://127.0.0.1:8080 (required).")
        var issuerURL: String?
        @Option(
            name: .customLong("network-key"),
            help: "The network key (prv_nk_…) from `provisio tenants network-key` (or \(networkKeyVariable)).")
        var networkKey: String?
        @Option(
            name: .customLong("tav-public-key"),
            help: "PEM of the issuer's TAV public key: tav-public-key.pem in Provisio's keys directory (required).")
        var tavPublicKey: String?
        @Option(
            name: .customLong("ca-dir"),
            help: "Sandbox CA directory: loaded if it holds root.pem, chain.json, leaf-key.pem; else generated there.")
        var caDirectory = "provisio-sandbox-ca"
        @Option(name: .customLong("api-key"), help: "The key callers must present (or \(apiKeyVariable); else generated).")
        var apiKey: String?
        @Flag(
            name: .customLong("relay-otp"), inversion: .prefixedNo,
            help: "Relay one-time codes through Provisio to the issuer's webhook.")
        var relayOTP = true
        @Option(name: .long, help: "The network's dialect: provisio (default) or mdes (Mastercard MDES, flags below).")
        var network: NetworkDialectOption = .provisio
        @OptionGroup(title: "MDES (--network mdes)") var mdes: SandboxMDESOptions

        func run() async throws {
            var logger = Logger(label: "provisio-sandbox")
            logger.logLevel = .info
            try await runReportingErrorsAsync {
                let environment = ProcessInfo.processInfo.environment
                let settings = try settings(environment: environment)
                let (ca, caOrigin) = try loadOrCreateCA()
                let rootPath = URL(fileURLWithPath: caDirectory).appendingPathComponent("root.pem").standardizedFileURL.path

                let wallet = SandboxWallet(certificateAuthority: ca)
                let mdesLink = try settings.mdes.map {
                    try SandboxMDESIssuerConnection(endpoint: $0.endpoint, identity: $0.identity, encryptor: $0.encryptor)
                }
                let issuer: any IssuerLink =
                    mdesLink ?? IssuerConnection(baseURL: settings.issuerURL, networkKey: settings.networkKey)
                // The network's key for opaque payment cards, kept beside the CA like its other keys:
                // Provisio's `serve --network-key` takes the public half.
                let opcKey = try SandboxOPCKey.loadOrGenerate(in: caDirectory).key
                let opcPublicKeyPath = URL(fileURLWithPath: caDirectory)
                    .appendingPathComponent(SandboxOPCKey.publicKeyFile).standardizedFileURL.path
                let network = SandboxNetworkTokenService(
                    wallet: wallet, issuer: issuer, issuerTAVPublicKey: settings.tavPublicKey, opcKey: opcKey)
                if relayOTP { await network.relayOTPsThroughIssuer() }
                // Google's key pair for Google opaque payment cards, kept beside the CA so the public
                // key a tenant gave Provisio stays good (the control API serves it too).
                let googleKey = try SandboxGoogleKey.loadOrGenerate(in: caDirectory, at: Date()).key
                let world = SandboxHTTPWorld(
                    network: network, google: SandboxGoogleWallet(tokenService: network, googleKey: googleKey))
                // Mastercard's encryption key, kept beside the CA so the certificate Provisio holds stays good.
                let mastercardKey = try settings.mdes.map { _ in
                    try SandboxMastercardEncryptionKey.loadOrGenerate(in: caDirectory, now: Date()).key
                }
                let mastercardCertificatePath = URL(fileURLWithPath: caDirectory)
                    .appendingPathComponent(SandboxMastercardEncryptionKey.certificateFile).standardizedFileURL.path

                let host = self.host
                let app = SandboxHTTPService.make(
                    world: world, host: host, port: port, apiKey: settings.apiKey, oauthVerifier: settings.mdes?.verifier,
                    mastercardKey: mastercardKey, logger: logger,
                    onListening: { bound in
                        let url = "http://\(host):\(bound)"
                        let key = settings.apiKeyGenerated ? settings.apiKey : "from \(Self.apiKeyVariable) or --api-key"
                        let connector =
                            settings.mdes == nil
                            ? "network connector base URL \(url) with API key \(key)"
                            : "MDES customer_service_url \(url)/mdes/csapi, mastercard_encryption_certificate_pem "
                                + "\(mastercardCertificatePath); control API key \(key)"
                        // Straight to the file handle: one unbuffered line, even when stdout is a pipe.
                        FileHandle.standardOutput.write(
                            Data(
                                ("Sandbox listening on \(url) (CA \(caOrigin)); Provisio: --trust-anchor \(rootPath), "
                                    + "--network-key \(opcPublicKeyPath), \(connector)\n").utf8))
                    })
                let group = ServiceGroup(
                    configuration: .init(
                        services: [.init(service: app)] + ParentWatchService.groupMembers(logger: logger),
                        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
                do {
                    try await group.run()
                    await mdesLink?.shutdown()
                } catch {
                    await mdesLink?.shutdown()
                    // Typically the port is taken; NIO's error names the address, nothing secret.
                    throw ProvisioError(.sandboxServeFailed, "The sandbox service could not run on \(host):\(port) (\(error)).")
                }
            }
        }

        struct Settings: Sendable {
            /// Provisio's dialect only (empty with `--network mdes`).
            var issuerURL: String
            var networkKey: String
            var tavPublicKey: P256.Signing.PublicKey
            var apiKey: String
            /// A generated key is printed once at start; a given one never is.
            var apiKeyGenerated: Bool
            /// `--network mdes`.
            var mdes: SandboxMDESOptions.Settings? = nil
        }

        /// Checks every flag before anything starts, so a mistake is one clear line, not a
        /// service that fails its first request.
        func settings(environment: [String: String]) throws -> Settings {
            guard (1...65535).contains(port) || port == 0 else {
                throw ProvisioError(.invalidArgument, "--port must be between 0 and 65535.")
            }
            if network == .mdes {
                let mdes = try mdes.settings()
                var settings = try commonSettings(environment: environment, issuerURL: "", networkKey: "")
                settings.mdes = mdes
                return settings
            }
            guard !mdes.anyGiven else {
                throw ProvisioError(.invalidArgument, "The --mdes-… flags go with --network mdes.")
            }
            guard let issuerURL, !issuerURL.isEmpty else {
                throw ProvisioError(
                    .invalidArgument, "--issuer-url is required (Provisio's base URL, e.g. http://127.0.0.1:8080).")
            }
            guard let url = URL(string: issuerURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false
            else {
                throw ProvisioError(.invalidArgument, "--issuer-url must be an http:// or https:// URL with a host.")
            }
            guard let networkKey = nonEmpty(networkKey) ?? nonEmpty(environment[Self.networkKeyVariable]) else {
                throw ProvisioError(
                    .invalidArgument,
                    "--network-key (or \(Self.networkKeyVariable)) is required: the prv_nk_… key from `provisio tenants network-key`."
                )
            }
            guard networkKey.hasPrefix("prv_nk_") else {
                // Do not echo it: it may be another secret pasted in the wrong place.
                throw ProvisioError(
                    .invalidArgument, "The network key must be a prv_nk_… key from `provisio tenants network-key`.")
            }
            return try commonSettings(environment: environment, issuerURL: issuerURL, networkKey: networkKey)
        }

        /// The TAV key and the API key, which both dialects need.
        private func commonSettings(environment: [String: String], issuerURL: String, networkKey: String) throws -> Settings {
            guard let tavPublicKey else {
                throw ProvisioError(
                    .invalidArgument, "--tav-public-key is required: tav-public-key.pem from Provisio's keys directory.")
            }
            guard let pem = FileManager.default.contents(atPath: tavPublicKey) else {
                throw ProvisioError(.invalidArgument, "Cannot read the TAV public key at \(tavPublicKey).")
            }
            guard let key = try? P256.Signing.PublicKey(pemRepresentation: String(decoding: pem, as: UTF8.self)) else {
                throw ProvisioError(.invalidArgument, "\(tavPublicKey) is not a PEM P-256 public key.")
            }
            if let given = nonEmpty(apiKey) ?? nonEmpty(environment[Self.apiKeyVariable]) {
                // What Provisio accepts as a connector key, so the two ends always agree.
                guard (8...256).contains(given.count), given.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline })
                else {
                    throw ProvisioError(.invalidArgument, "The API key must be 8 to 256 visible ASCII characters.")
                }
                return Settings(
                    issuerURL: issuerURL, networkKey: networkKey, tavPublicKey: key, apiKey: given, apiKeyGenerated: false)
            }
            return Settings(
                issuerURL: issuerURL, networkKey: networkKey, tavPublicKey: key, apiKey: Self.generateAPIKey(),
                apiKeyGenerated: true)
        }

        /// The CA Provisio already trusts if the directory has one; otherwise a fresh one, written
        /// there so the next start (and Provisio's `--trust-anchor`) finds it.
        private func loadOrCreateCA() throws -> (SandboxCertificateAuthority, String) {
            if SandboxCADirectory.containsCA(at: caDirectory) {
                return (try SandboxCADirectory.read(from: caDirectory), "loaded from \(caDirectory)")
            }
            let present = SandboxCADirectory.files.filter {
                FileManager.default.fileExists(atPath: (caDirectory as NSString).appendingPathComponent($0))
            }
            guard present.isEmpty else {
                throw ProvisioError(
                    .sandboxCAInvalid,
                    "\(caDirectory) holds part of a sandbox CA (\(present.joined(separator: ", "))) but not root.pem, chain.json "
                        + "and leaf-key.pem; restore them or name an empty directory.")
            }
            let ca = try SandboxCertificateAuthority.generate(profile: SandboxCAProfile(now: Date()))
            try SandboxCADirectory.write(ca, to: caDirectory)
            return (ca, "generated in \(caDirectory)")
        }

        private func nonEmpty(_ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            return value
        }

        /// `sbx_key_` and 32 random bytes in hex, from the system's secure generator.
        static func generateAPIKey() -> String {
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            return "sbx_key_" + bytes.map { String(format: "%02x", $0) }.joined()
        }
    }
}
