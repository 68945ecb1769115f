import Crypto
import Foundation
import ProvisioCore
import X509
import _CryptoExtras

/// Mastercard's encryption certificate, which an issuer receives at onboarding: what the issuer
/// encrypts for Mastercard with (the new card details of a token update,
/// `EncryptedAccountInformation`). It is public, so it is kept as the PEM it came in; only its
/// RSA key is used, never its chain, which Mastercard's documents do not describe.
///
/// The fingerprint. Not confirmed (docs/mdes.md): the Customer Service document says only that
/// `PublicKeyFingerprint` names Mastercard's key. Provisio names it as its MDES listener expects
/// MDES to name the issuer's key (`MDESIssuerKey`): SHA-256 of the DER SubjectPublicKeyInfo,
/// lower-case hex, 64 characters, which is also what Mastercard's client-encryption libraries
/// call a key fingerprint. `MDESPayloadEncryptor` computes the same value from the same key.
public struct MastercardEncryptionCertificate: Sendable, Equatable {
    /// RSA moduli Provisio encrypts for: 2048 bits (what Mastercard issues) up to 4096, which
    /// bounds the work a tenant's setting can cost.
    public static let keySizes = 2048...4096
    /// The most a PEM may hold: a 4096-bit certificate with a long chain of extensions is
    /// about 2.5 KB.
    public static let maximumPEMBytes = 16_384

    /// The certificate, re-encoded as PEM from its DER: what the settings store.
    public let pemRepresentation: String
    /// SHA-256 of the DER SubjectPublicKeyInfo, lower-case hex: `PublicKeyFingerprint`.
    public let publicKeyFingerprint: String
    /// The key ("PUBLIC KEY" PEM) `MDESPayloadEncryptor` wraps the AES keys with.
    public let publicKeyPEM: String
    public let keySizeInBits: Int
    public let notValidBefore: Date
    public let notValidAfter: Date

    /// One PEM `CERTIFICATE` of an RSA key of `keySizes`. The error never repeats the text.
    public init(pem: String) throws {
        let invalid = { (why: String) in
            ProvisioError(.mastercardEncryptionCertificateInvalid, "Mastercard's encryption certificate \(why).")
        }
        guard pem.utf8.count <= Self.maximumPEMBytes,
            pem.components(separatedBy: "-----BEGIN ").count == 2, pem.contains("-----BEGIN CERTIFICATE-----")
        else { throw invalid("is not one PEM certificate (-----BEGIN CERTIFICATE-----)") }
        guard let certificate = try? Certificate(pemEncoded: pem) else {
            throw invalid("is not a readable X.509 certificate")
        }
        guard let key = _RSA.Signing.PublicKey(certificate.publicKey) else {
            throw invalid("does not hold an RSA key")
        }
        guard Self.keySizes.contains(key.keySizeInBits), key.keySizeInBits % 8 == 0 else {
            throw invalid(
                "holds an RSA key of \(key.keySizeInBits) bits, not \(Self.keySizes.lowerBound) to "
                    + "\(Self.keySizes.upperBound)")
        }
        guard let reencoded = try? certificate.serializeAsPEM().pemString else {
            throw invalid("is not a readable X.509 certificate")
        }
        self.pemRepresentation = reencoded
        self.publicKeyFingerprint = BinaryText.lowercaseHex(SHA256.hash(data: key.derRepresentation))
        self.publicKeyPEM = key.pemRepresentation
        self.keySizeInBits = key.keySizeInBits
        self.notValidBefore = certificate.notValidBefore
        self.notValidAfter = certificate.notValidAfter
    }

    /// Throws once the certificate has expired: MDES would not open what is encrypted for it.
    public func requireCurrent(at now: Date) throws {
        guard now <= notValidAfter else {
            throw ProvisioError(.mastercardEncryptionCertificateInvalid, "Mastercard's encryption certificate has expired.")
        }
    }

    /// The encryptor for this key, with the envelope the Customer Service document describes
    /// (OAEP with SHA-256, AES-128-GCM by default).
    public func encryptor(options: MDESEnvelopeOptions = MDESEnvelopeOptions()) throws -> MDESPayloadEncryptor {
        try MDESPayloadEncryptor(publicKeyPEM: publicKeyPEM, options: options)
    }
}
