import Foundation
import ProvisioCore

/// What PassKit hands the app in `generateRequestWithCertificateChain`, read once from its
/// wire text into checked values: the nonce and its signature as bytes, the scheme as a
/// scheme. The certificates stay base64 text here: reading them means validating them against
/// Apple's PKI at a time, which is the chain validator's job.
public struct PassKitChallenge: Sendable {
    public let certificates: [String]
    public let nonce: Data
    public let nonceSignature: Data
    public let scheme: EncryptionScheme

    /// PassKit's nonce is a few bytes and its signature a DER ECDSA signature; the bounds keep
    /// absurd inputs out while leaving room for any real value.
    public static let maximumNonceLength = 256
    public static let maximumNonceSignatureLength = 1024

    public init(certificates: [String], nonce: Data, nonceSignature: Data, scheme: EncryptionScheme) {
        self.certificates = certificates
        self.nonce = nonce
        self.nonceSignature = nonceSignature
        self.scheme = scheme
    }

    /// Reads the wire's text: nonce and signature in hex or base64 (`invalid_nonce`,
    /// `invalid_nonce_signature`), the scheme in either case and `ECC_V2` when absent
    /// (`unsupported_encryption_scheme`).
    public init(certificates: [String], nonceText: String, nonceSignatureText: String, schemeName: String?) throws {
        guard let nonce = BinaryText.decodeHexOrBase64(nonceText), nonce.count <= Self.maximumNonceLength else {
            throw ProvisioError(
                .invalidNonce, "The nonce must be non-empty hex or base64, at most \(Self.maximumNonceLength) bytes.")
        }
        guard let signature = BinaryText.decodeHexOrBase64(nonceSignatureText),
            signature.count <= Self.maximumNonceSignatureLength
        else {
            throw ProvisioError(
                .invalidNonceSignature,
                "The nonce signature must be non-empty hex or base64, at most \(Self.maximumNonceSignatureLength) bytes.")
        }
        self.init(
            certificates: certificates, nonce: nonce, nonceSignature: signature,
            scheme: try schemeName.map(EncryptionScheme.init(wireName:)) ?? .eccV2)
    }
}
