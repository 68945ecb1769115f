import Crypto
import Foundation
import ProvisioCore

/// Verifies activation data with the issuer's TAV public key — what the network (and the
/// sandbox's token service) does before it activates a token.
public struct TAVVerifier: Sendable {
    public let publicKey: P256.Signing.PublicKey

    public init(publicKey: P256.Signing.PublicKey) {
        self.publicKey = publicKey
    }

    /// Checks layout, key, signature over `PAN|MMYY|dataValidUntilTimestamp`, and that `time` is
    /// not past `dataValidUntilTimestamp`. Returns the decoded value.
    @discardableResult
    public func verify(activationData: String, pan: PrimaryAccountNumber, expiry: CardExpiry, at time: Date) throws
        -> TokenAuthenticationValue
    {
        let tav = try TokenAuthenticationValue(activationData: activationData)
        guard tav.version == TokenAuthenticationValue.currentVersion,
            tav.signatureAlgorithm == TokenAuthenticationValue.algorithm,
            tav.includedFieldsInOrder == TokenAuthenticationValue.fields
        else {
            throw ProvisioError(.tavUnsupported, "The TAV version, algorithm or field list is not supported.")
        }
        guard tav.keyId == TAVSigner.keyId(of: publicKey) else {
            throw ProvisioError(.tavKeyMismatch, "The TAV was signed by another key (key id \(tav.keyId)).")
        }
        guard let validUntil = try? Date(tav.dataValidUntilTimestamp, strategy: .iso8601) else {
            throw ProvisioError(.tavMalformed, "The TAV's dataValidUntilTimestamp is not an ISO 8601 time.")
        }
        guard let signatureBytes = Data(base64Encoded: tav.signature),
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes)
        else {
            throw ProvisioError(.tavMalformed, "The TAV signature is not a base64 DER ECDSA signature.")
        }
        let message = TokenAuthenticationValue.signedMessage(
            pan: pan, expiry: expiry, validUntil: tav.dataValidUntilTimestamp)
        guard publicKey.isValidSignature(signature, for: message) else {
            throw ProvisioError(.tavBadSignature, "The TAV signature does not match this card and key.")
        }
        guard time <= validUntil else {
            throw ProvisioError(.tavExpired, "The TAV expired at \(tav.dataValidUntilTimestamp).")
        }
        return tav
    }
}
