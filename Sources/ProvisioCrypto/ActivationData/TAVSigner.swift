import Crypto
import Foundation
import ProvisioCore

/// Signs activation data with the issuer's TAV key (P-256 ECDSA, SHA-256).
public struct TAVSigner: Sendable {
    public let privateKey: P256.Signing.PrivateKey

    /// Derived once: a DER encoding and a hash per signature showed in the endpoint's profile.
    public let keyId: String

    public init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
        self.keyId = TAVSigner.keyId(of: privateKey.publicKey)
    }

    public static func keyId(of publicKey: P256.Signing.PublicKey) -> String {
        BinaryText.lowercaseHex(SHA256.hash(data: publicKey.derRepresentation).prefix(8))
    }

    /// The base64 `activationData` for this card, valid until `validUntil` (whole seconds).
    public func sign(pan: PrimaryAccountNumber, expiry: CardExpiry, validUntil: Date) throws -> String {
        let timestamp = TokenAuthenticationValue.timestamp(validUntil)
        let message = TokenAuthenticationValue.signedMessage(pan: pan, expiry: expiry, validUntil: timestamp)
        let signature = try privateKey.signature(for: message)
        return TokenAuthenticationValue(
            keyId: keyId,
            dataValidUntilTimestamp: timestamp,
            signature: signature.derRepresentation.base64EncodedString()
        ).encoded()
    }
}
