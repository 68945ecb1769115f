import Foundation
import ProvisioCore
import ProvisioJSON

/// The plaintext Apple's provisioning service expects inside `encryptedPassData`
/// (Apple's documented JSON: `primaryAccountNumber`, `expiration` "MM/YY", `name`, and the
/// device's `nonce` and `nonceSignature` as lowercase hex).
public struct ApplePassPayload: Sendable {
    public let primaryAccountNumber: PrimaryAccountNumber
    public let expiry: CardExpiry
    public let name: CardholderName
    public let nonce: Data
    public let nonceSignature: Data

    public init(
        primaryAccountNumber: PrimaryAccountNumber, expiry: CardExpiry, name: CardholderName, nonce: Data,
        nonceSignature: Data
    ) {
        self.primaryAccountNumber = primaryAccountNumber
        self.expiry = expiry
        self.name = name
        self.nonce = nonce
        self.nonceSignature = nonceSignature
    }

    /// The JSON bytes that get sealed. Keys sorted and slashes unescaped so that the output is
    /// byte-for-byte stable.
    public func jsonData() -> Data {
        // Sorted key order, as JSONEncoder's .sortedKeys gives (ApplePayloadTests compare them).
        var writer = FlatJSONObjectWriter()
        writer.member("expiration", expiry.slashed)
        writer.member("name", name.value)
        writer.member("nonce", BinaryText.lowercaseHex(nonce))
        writer.member("nonceSignature", BinaryText.lowercaseHex(nonceSignature))
        writer.member("primaryAccountNumber", primaryAccountNumber.unmaskedDigits)
        return Data(writer.finish())
    }

    /// Parses the plaintext back (the sandbox's Apple service does this after opening).
    public init(jsonData: Data) throws {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: jsonData)
        } catch {
            throw ProvisioError(.payloadMalformed, "The pass payload is not Apple's JSON shape.")
        }
        guard let nonce = BinaryText.decodeHex(wire.nonce), let signature = BinaryText.decodeHex(wire.nonceSignature) else {
            throw ProvisioError(.payloadMalformed, "The pass payload's nonce and nonceSignature must be hex.")
        }
        self.init(
            primaryAccountNumber: try PrimaryAccountNumber(wire.primaryAccountNumber),
            expiry: try CardExpiry(slashed: wire.expiration),
            name: try CardholderName(wire.name),
            nonce: nonce,
            nonceSignature: signature
        )
    }

    private struct Wire: Codable {
        var primaryAccountNumber: String
        var expiration: String
        var name: String
        var nonce: String
        var nonceSignature: String
    }
}
