import Foundation
import ProvisioCore
import ProvisioOutbound

/// How `provisio serve` is set up. Flags win over environment variables, which win over the
/// defaults (127.0.0.1:8080, `./provisio.sqlite`, `./provisio-keys`, development mode).
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var database = DatabaseLocation.sqlite(path: DatabaseLocation.defaultSQLitePath)
    public var keysDirectory = "./provisio-keys"
    /// PEM files of roots trusted in addition to Apple Root CA - G3 (the sandbox's, say).
    public var extraTrustAnchorFiles: [String] = []
    /// PEM of the card network's P-256 encryption key for Google Pay / Samsung Pay; when absent,
    /// the sandbox network key in the key directory is used (created in development mode).
    public var networkKeyFile: String?
    /// The card network's connector API for tenants that set none of their own, and the key
    /// Provisio presents to it (`provisio sandbox serve` prints both).
    public var networkURL: String?
    public var networkAPIKey: String?
    /// Where `provisio sandbox serve` listens by default: development uses it when only a key is given.
    public static let developmentNetworkURL = "http://127.0.0.1:8090"
    /// Production refuses to invent key material; development creates what is missing, loudly.
    public var production = false
    /// Internal address ranges that webhooks and tenants' network connectors may reach anyway
    /// (an issuer's own network, say). Loopback is allowed in development only.
    public var outboundAllowList: [IPAddressRange] = []
    /// How long an idempotency claim of a crashed process blocks a retry.
    public var idempotencyLease: Duration = .seconds(30)
    /// PEM certificate chain and private key: with both, `serve` speaks HTTPS (reloaded on SIGHUP).
    public var tlsCertificateFile: String?
    public var tlsKeyFile: String?
    /// The MDES Issuer Outbound listener (issue 23): a second port, always mutually
    /// authenticated TLS, with its own certificate and the CA whose client certificates it takes.
    /// Set by `--mdes-port`/`PROVISIO_MDES_PORT` and its three files; `mdesListener()` checks them.
    public var mdesPort: Int?
    public var mdesTLSCertificateFile: String?
    public var mdesTLSKeyFile: String?
    public var mdesClientCAFile: String?
    /// The operator says a TLS-terminating proxy sits in front: production may then listen on
    /// a non-loopback address in plain HTTP.
    public var behindTLSProxy = false
    /// Connection and request limits.
    public var httpLimits = HTTPLimits.standard
    /// Where wallets and card networks reach this server (`PROVISIO_PUBLIC_URL`), for the card
    /// art URLs it gives out; nil: the address it listens on (https with TLS).
    public var publicURL: String?
    /// The public URL given, or the listening address.
    public var resolvedPublicURL: String {
        publicURL ?? "\(tlsCertificateFile != nil ? "https" : "http")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
    /// Production takes extra trust anchors only when told: whoever holds such a root's key
    /// gets any card's PAN sealed to a key of their own through a `provisioning` API key.
    public var allowTestTrustAnchors = false
    /// Production reaches PostgreSQL off loopback only with `sslmode=require` unless told.
    public var allowPlaintextDatabase = false
    /// Development mode (keys created on the fly, plain HTTP) listens on loopback only unless told.
    public var allowDevelopmentNetwork = false

    public init() {}

    /// Where outbound calls may go: production refuses loopback, private and link-local
    /// addresses and plain http; development allows loopback and http.
    public var outboundPolicy: OutboundPolicy {
        var policy: OutboundPolicy = production ? .production : .development
        policy.allowedRanges = outboundAllowList
        return policy
    }

    /// Whether the server listens on loopback only.
    public var listensOnLoopbackOnly: Bool {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased()) || host.hasPrefix("127.")
    }

    /// TLS files, both or neither; production refuses a non-loopback plain-HTTP listener unless
    /// the operator declares a TLS proxy in front, extra trust anchors unless allowed, and a
    /// PostgreSQL off loopback without TLS unless allowed; development listens on loopback only
    /// unless allowed.
    public func validateTransport() throws {
        guard (tlsCertificateFile == nil) == (tlsKeyFile == nil) else {
            throw ProvisioError(.invalidParameter, "--tls-cert and --tls-key go together.")
        }
        _ = try mdesListener()
        let loopback = listensOnLoopbackOnly
        if production, tlsCertificateFile == nil, !loopback, !behindTLSProxy {
            throw ProvisioError(
                .tlsRequired,
                "In production, listening on \(host) needs --tls-cert and --tls-key, or --behind-tls-proxy when a TLS-terminating proxy is in front."
            )
        }
        if production, !extraTrustAnchorFiles.isEmpty, !allowTestTrustAnchors {
            throw ProvisioError(
                .testTrustAnchorsRefused,
                "Production trusts Apple Root CA - G3 only; --trust-anchor needs --allow-test-trust-anchors (a test environment)."
            )
        }
        if production, case .postgres(let url) = database, DatabaseConnector.transportWarning(url) != nil,
            !allowPlaintextDatabase
        {
            throw ProvisioError(
                .databaseTLSRequired,
                "In production, PostgreSQL off loopback needs sslmode=require in the URL, or --allow-plaintext-database.")
        }
        if !production, !loopback, !allowDevelopmentNetwork {
            throw ProvisioError(
                .developmentListenRefused,
                "Development mode listens on loopback only (it creates keys and speaks plain HTTP); use --production, or --allow-development-network to serve it to the network anyway."
            )
        }
    }

    /// Applies `PROVISIO_DATABASE_URL`, `PROVISIO_TRUST_ANCHORS` (comma-separated paths),
    /// `PROVISIO_KEYS_DIR`, `PROVISIO_NETWORK_KEY`, `PROVISIO_NETWORK_URL`,
    /// `PROVISIO_NETWORK_API_KEY`, `PROVISIO_PUBLIC_URL`, `PROVISIO_OUTBOUND_ALLOW` (comma-separated CIDRs),
    /// `PROVISIO_TLS_CERT`, `PROVISIO_TLS_KEY`, `PROVISIO_BEHIND_TLS_PROXY=true`,
    /// `PROVISIO_IDEMPOTENCY_LEASE_SECONDS`, `PROVISIO_MDES_PORT`, `PROVISIO_MDES_TLS_CERT`,
    /// `PROVISIO_MDES_TLS_KEY`, `PROVISIO_MDES_CLIENT_CA`, `PROVISIO_ENV=production` and the three
    /// `PROVISIO_ALLOW_TEST_TRUST_ANCHORS`, `PROVISIO_ALLOW_PLAINTEXT_DATABASE`,
    /// `PROVISIO_ALLOW_DEVELOPMENT_NETWORK` (each `=true`).
    public mutating func apply(environment: [String: String]) throws {
        if let url = environment["PROVISIO_DATABASE_URL"], !url.isEmpty { database = try DatabaseLocation(url) }
        if let anchors = environment["PROVISIO_TRUST_ANCHORS"], !anchors.isEmpty {
            extraTrustAnchorFiles = anchors.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if let keys = environment["PROVISIO_KEYS_DIR"], !keys.isEmpty { keysDirectory = keys }
        if let key = environment["PROVISIO_NETWORK_KEY"], !key.isEmpty { networkKeyFile = key }
        if let url = environment["PROVISIO_NETWORK_URL"], !url.isEmpty { networkURL = url }
        if let key = environment["PROVISIO_NETWORK_API_KEY"], !key.isEmpty { networkAPIKey = key }
        if let url = environment["PROVISIO_PUBLIC_URL"], !url.isEmpty {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil,
                parsed.query == nil, parsed.user == nil
            else {
                throw ProvisioError(
                    .invalidParameter, "PROVISIO_PUBLIC_URL must be an http(s) URL without credentials or query.")
            }
            publicURL = url
        }
        if environment["PROVISIO_ENV"] == "production" { production = true }
        if let allow = environment["PROVISIO_OUTBOUND_ALLOW"], !allow.isEmpty {
            outboundAllowList = try OutboundPolicy.parseAllowList(allow)
        }
        if let cert = environment["PROVISIO_TLS_CERT"], !cert.isEmpty { tlsCertificateFile = cert }
        if let key = environment["PROVISIO_TLS_KEY"], !key.isEmpty { tlsKeyFile = key }
        if environment["PROVISIO_BEHIND_TLS_PROXY"] == "true" { behindTLSProxy = true }
        if let lease = environment["PROVISIO_IDEMPOTENCY_LEASE_SECONDS"], !lease.isEmpty {
            idempotencyLease = try Self.leaseDuration(lease)
        }
        if environment["PROVISIO_ALLOW_TEST_TRUST_ANCHORS"] == "true" { allowTestTrustAnchors = true }
        if environment["PROVISIO_ALLOW_PLAINTEXT_DATABASE"] == "true" { allowPlaintextDatabase = true }
        if environment["PROVISIO_ALLOW_DEVELOPMENT_NETWORK"] == "true" { allowDevelopmentNetwork = true }
        if let port = environment["PROVISIO_MDES_PORT"], !port.isEmpty {
            guard let value = Int(port) else {
                throw ProvisioError(.invalidParameter, "PROVISIO_MDES_PORT must be a port number.")
            }
            mdesPort = value
        }
        if let file = environment["PROVISIO_MDES_TLS_CERT"], !file.isEmpty { mdesTLSCertificateFile = file }
        if let file = environment["PROVISIO_MDES_TLS_KEY"], !file.isEmpty { mdesTLSKeyFile = file }
        if let file = environment["PROVISIO_MDES_CLIENT_CA"], !file.isEmpty { mdesClientCAFile = file }
    }

    /// The MDES listener: nil without a port; with one, all three files, since it never runs
    /// without mutual TLS. Files without a port are a mistake too.
    public func mdesListener() throws -> MDESListenerConfiguration? {
        let files = [mdesTLSCertificateFile, mdesTLSKeyFile, mdesClientCAFile]
        guard let port = mdesPort else {
            guard files.allSatisfy({ $0 == nil }) else {
                throw ProvisioError(.invalidParameter, "--mdes-tls-cert, --mdes-tls-key and --mdes-client-ca need --mdes-port.")
            }
            return nil
        }
        guard (0...65535).contains(port) else { throw ProvisioError(.invalidParameter, "--mdes-port must be 0 to 65535.") }
        guard let certificate = mdesTLSCertificateFile, let key = mdesTLSKeyFile, let clientCA = mdesClientCAFile else {
            throw ProvisioError(
                .invalidParameter,
                "--mdes-port needs --mdes-tls-cert, --mdes-tls-key and --mdes-client-ca: the MDES listener speaks mutual TLS only."
            )
        }
        return MDESListenerConfiguration(port: port, certificateFile: certificate, keyFile: key, clientCAFile: clientCA)
    }

    /// The server-wide network connection: both URL and key, or neither. In development a key
    /// alone means the sandbox on its default port.
    public func networkEndpoint() throws -> NetworkEndpoint? {
        switch (networkURL, networkAPIKey) {
        case (nil, nil): return nil
        case (let url?, let key?): return try NetworkEndpoint(url: url, apiKey: key)
        case (nil, let key?) where !production: return try NetworkEndpoint(url: Self.developmentNetworkURL, apiKey: key)
        case (nil, _?):
            throw ProvisioError(.invalidParameter, "--network-api-key needs --network-url in production.")
        case (_?, nil):
            throw ProvisioError(.invalidParameter, "--network-url needs --network-api-key (or PROVISIO_NETWORK_API_KEY).")
        }
    }

    /// 1 to 3600 whole seconds.
    public static func leaseDuration(_ text: String) throws -> Duration {
        guard let seconds = Int(text), (1...3600).contains(seconds) else {
            throw ProvisioError(.invalidParameter, "The idempotency lease must be 1 to 3600 seconds.")
        }
        return .seconds(seconds)
    }
}
