import Foundation
import ProvisioCore
import ProvisioJSON

/// Provisio's Token Authentication Value, modelled on Mastercard's public TAV layout: a JSON
/// object, base64 encoded, whose signature covers the fields named in `includedFieldsInOrder`
/// joined with `|` — here `PAN|MMYY|dataValidUntilTimestamp`.
public struct TokenAuthenticationValue: Codable, Hashable, Sendable {
    public static let currentVersion = "3"
    public static let algorithm = "ECDSA_P256_SHA256"
    public static let fields = "accountNumber|expiryDate|dataValidUntilTimestamp"

    public var version: String
    public var signatureAlgorithm: String
    /// Identifies the issuer key that signed (hex of the first 8 bytes of SHA-256 of its
    /// SubjectPublicKeyInfo), so the verifier can tell a rotated key from a forgery.
    public var keyId: String
    /// UTC, ISO 8601 with seconds, e.g. `2026-11-22T04:30:00Z`.
    public var dataValidUntilTimestamp: String
    public var includedFieldsInOrder: String
    /// Base64 of the DER ECDSA signature.
    public var signature: String

    /// The exact bytes signed: `PAN|MMYY|dataValidUntilTimestamp`.
    static func signedMessage(pan: PrimaryAccountNumber, expiry: CardExpiry, validUntil timestamp: String) -> Data {
        Data("\(pan.unmaskedDigits)|\(expiry.compact)|\(timestamp)".utf8)
    }

    static func timestamp(_ date: Date) -> String {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(.iso8601)
    }

    /// The base64 text that travels as `activationData`.
    public func encoded() -> String {
        // The members in sorted key order: the same bytes JSONEncoder with .sortedKeys writes
        // (TAVTests hold the two together).
        var writer = FlatJSONObjectWriter()
        writer.member("dataValidUntilTimestamp", dataValidUntilTimestamp)
        writer.member("includedFieldsInOrder", includedFieldsInOrder)
        writer.member("keyId", keyId)
        writer.member("signature", signature)
        writer.member("signatureAlgorithm", signatureAlgorithm)
        writer.member("version", version)
        return Data(writer.finish()).base64EncodedString()
    }

    public init(activationData: String) throws {
        guard let json = BinaryText.decodeBase64(activationData),
            let value = try? JSONDecoder().decode(Self.self, from: json)
        else {
            throw ProvisioError(.tavMalformed, "The activation data is not a base64 TAV JSON object.")
        }
        self = value
    }

    init(keyId: String, dataValidUntilTimestamp: String, signature: String) {
        self.version = Self.currentVersion
        self.signatureAlgorithm = Self.algorithm
        self.keyId = keyId
        self.dataValidUntilTimestamp = dataValidUntilTimestamp
        self.includedFieldsInOrder = Self.fields
        self.signature = signature
    }
}
