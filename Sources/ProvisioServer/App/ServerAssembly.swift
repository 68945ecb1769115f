import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto

/// Turns a configuration into running services: opens and migrates the database, loads (or in
/// development creates) the keys, reads the trust anchors and the network key.
public enum ServerAssembly {
    public static let sandboxNetworkKeyFile = "sandbox-network-key.pem"

    public static func assemble(_ configuration: ServerConfiguration, clock: any TimeSource = SystemTimeSource(), logger: Logger)
        async throws -> ServerServices
    {
        try configuration.validateTransport()
        let keys = try loadKeys(configuration, logger: logger)
        let anchors = try configuration.extraTrustAnchorFiles.flatMap(TrustAnchors.load(pemFile:))
        for file in configuration.extraTrustAnchorFiles {
            // Whoever holds such a root's key can have PANs sealed to a key of their own.
            logger.warning(
                "trusting an extra root besides Apple Root CA - G3: for tests only",
                metadata: ["file": "\(file)", "production": "\(configuration.production)"])
        }
        if !configuration.production {
            logger.warning(
                "DEVELOPMENT MODE: keys are created when missing and plain HTTP is served",
                metadata: [
                    "listening": "\(configuration.listensOnLoopbackOnly ? "loopback only" : "beyond loopback (allowed)")"
                ])
        }
        let (networkKey, networkKeyID) = try loadNetworkKey(configuration, logger: logger)
        let network = try configuration.networkEndpoint()
        let handle = try await DatabaseConnector.connect(configuration.database, logger: logger)
        do {
            let applied = try await Migrator(handle: handle).migrate(now: clock.now())
            if !applied.isEmpty { logger.info("applied migrations", metadata: ["versions": "\(applied)"]) }
        } catch {
            await handle.shutdown()
            throw error
        }
        var services = ServerServices(
            handle: handle, keys: keys,
            chainValidator: CachingChainValidator(validator: .production(additionalAnchors: anchors)),
            networkKey: networkKey, networkKeyID: networkKeyID, network: network,
            outbound: OutboundHTTPClient(policy: configuration.outboundPolicy), clock: clock)
        services.idempotencyLease = configuration.idempotencyLease
        // Secure (`__Host-`) cookies in production and whenever clients come over TLS; HSTS
        // and the forwarded client address behind a declared TLS proxy.
        let overTLS = configuration.tlsCertificateFile != nil || configuration.behindTLSProxy
        services.secureConsoleCookies = configuration.production || overTLS
        services.behindTLSProxy = configuration.behindTLSProxy
        services.publicURL.withLock { $0 = configuration.resolvedPublicURL }
        return services
    }

    static func loadKeys(_ configuration: ServerConfiguration, logger: Logger) throws -> ProvisioKeys {
        let directory = KeyDirectory(path: configuration.keysDirectory)
        let vaultFile = (configuration.keysDirectory as NSString).appendingPathComponent(KeyDirectory.vaultKeysFile)
        if !FileManager.default.fileExists(atPath: vaultFile) {
            guard !configuration.production else {
                throw ProvisioError(
                    .keysMissing, "No keys in \(configuration.keysDirectory); run `provisio keys init --dir DIR` first.")
            }
            logger.warning(
                """
                DEVELOPMENT MODE: no key material in \(configuration.keysDirectory); created new keys there. \
                Cards stored with other keys cannot be read. Use `provisio keys init` and PROVISIO_ENV=production for real use.
                """)
            return try directory.initialize()
        }
        return try directory.load()
    }

    static func loadNetworkKey(_ configuration: ServerConfiguration, logger: Logger) throws -> (
        P256.KeyAgreement.PublicKey, String
    ) {
        if let file = configuration.networkKeyFile {
            guard let pem = try? String(contentsOfFile: file, encoding: .utf8),
                let key = try? P256.KeyAgreement.PublicKey(pemRepresentation: pem)
            else {
                throw ProvisioError(.keysInvalid, "\(file) is not a P-256 public key in PEM.")
            }
            return (key, keyID(key))
        }
        guard !configuration.production else {
            throw ProvisioError(.keysMissing, "Set --network-key (the card network's encryption key) in production.")
        }
        let path = (configuration.keysDirectory as NSString).appendingPathComponent(sandboxNetworkKeyFile)
        let privateKey: P256.KeyAgreement.PrivateKey
        if FileManager.default.fileExists(atPath: path) {
            let pem = String(decoding: try KeyDirectory.readSecret(path), as: UTF8.self)
            guard let key = try? P256.KeyAgreement.PrivateKey(pemRepresentation: pem) else {
                throw ProvisioError(.keysInvalid, "\(path) is not a P-256 private key in PEM.")
            }
            privateKey = key
        } else {
            privateKey = P256.KeyAgreement.PrivateKey()
            try KeyDirectory.writeSecret(privateKey.pemRepresentation, to: path)
            logger.warning("DEVELOPMENT MODE: created the sandbox network encryption key \(path).")
        }
        return (privateKey.publicKey, keyID(privateKey.publicKey))
    }

    static func keyID(_ key: P256.KeyAgreement.PublicKey) -> String {
        "net-" + BinaryText.lowercaseHex(SHA256.hash(data: key.derRepresentation).prefix(8))
    }
}
