import Foundation
import ProvisioCore

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
    /// Production refuses to invent key material; development creates what is missing, loudly.
    public var production = false

    public init() {}

    /// Applies `PROVISIO_DATABASE_URL`, `PROVISIO_TRUST_ANCHORS` (comma-separated paths),
    /// `PROVISIO_KEYS_DIR`, `PROVISIO_NETWORK_KEY` and `PROVISIO_ENV=production`.
    public mutating func apply(environment: [String: String]) throws {
        if let url = environment["PROVISIO_DATABASE_URL"], !url.isEmpty { database = try DatabaseLocation(url) }
        if let anchors = environment["PROVISIO_TRUST_ANCHORS"], !anchors.isEmpty {
            extraTrustAnchorFiles = anchors.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if let keys = environment["PROVISIO_KEYS_DIR"], !keys.isEmpty { keysDirectory = keys }
        if let key = environment["PROVISIO_NETWORK_KEY"], !key.isEmpty { networkKeyFile = key }
        if environment["PROVISIO_ENV"] == "production" { production = true }
    }
}
