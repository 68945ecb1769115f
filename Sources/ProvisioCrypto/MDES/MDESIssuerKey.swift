import Crypto
import Foundation
import ProvisioCore
import _CryptoExtras

/// An issuer's RSA key for MDES's encrypted payloads: MDES wraps each payload's one-time AES key
/// with the public half, which the issuer registers with Mastercard together with its
/// fingerprint; the payload names the key by that fingerprint.
///
/// The fingerprint. Confirmed: the document (MDES Issuer Outbound API 2.0.33) says only that it is
/// the fingerprint of the public key, hex, case-insensitive, 32 to 64 characters; its example has
/// 40 (a SHA-1 length). Mastercard's client-encryption libraries and its Developers dashboard
/// compute a key fingerprint as SHA-256 of the DER SubjectPublicKeyInfo, lowercase hex (64
/// characters). Assumed: that MDES names an issuer key the same way. So that is what Provisio
/// publishes (`publicKeyFingerprint`), and it also accepts SHA-1 of the same DER as an alias,
/// because issuers have reported MDES sending SHA-1 fingerprints (Mastercard/client-encryption-
/// python issue 9). A fingerprint only picks the key: a wrong pick cannot decrypt.
public struct MDESIssuerKey: Sendable {
    /// The RSA sizes Provisio generates MDES keys in.
    public static let generatedKeySizes = [2048, 3072]
    /// 2048 bits. Mastercard's Issuer Outbound document (2.0.33) bounds `encryptedKey` at 512 hex
    /// characters, the length of an RSA 2048 block: a 3072-bit key's is 768, longer than that
    /// published maximum, so MDES may refuse to register it or to wrap for it (docs/mdes.md).
    /// 3072 (about 128-bit strength, what NIST SP 800-57 asks of keys used past 2030) is there
    /// for an issuer whom Mastercard confirms it at onboarding; it also costs about three times
    /// the private-key operation that every `authorizeService` makes.
    public static let defaultGeneratedKeySize = 2048

    /// PKCS#8 DER; swift-crypto's RSA encryption keys are not `Sendable`, so the key keeps bytes
    /// (as `RSAV2Opener` does) and each decryption parses them.
    let privateKeyDER: Data
    /// The DER SubjectPublicKeyInfo.
    public let publicKeyDER: Data
    /// SHA-256 of `publicKeyDER`, lowercase hex: what the issuer registers with Mastercard.
    public let publicKeyFingerprint: String
    /// The digests a payload's `publicKeyFingerprint` may carry for this key.
    let fingerprintAliases: [Data]
    /// The modulus length in bytes, which every `encryptedKey` for this key has.
    let modulusByteCount: Int

    /// A fresh RSA key of `keySizeInBits`, one of `generatedKeySizes`.
    public static func generate(keySizeInBits: Int = defaultGeneratedKeySize) throws -> MDESIssuerKey {
        try checkGeneratedKeySize(keySizeInBits)
        let key: _RSA.Encryption.PrivateKey
        do {
            key = try _RSA.Encryption.PrivateKey(keySize: .init(bitCount: keySizeInBits))
        } catch {
            throw ProvisioError(.mdesKeyInvalid, "Could not generate an RSA \(keySizeInBits) key.")
        }
        return try MDESIssuerKey(key)
    }

    /// Refuses a size `generate` does not make (`mdes_key_size_unsupported`), so a caller can
    /// check it before any other work.
    public static func checkGeneratedKeySize(_ bits: Int) throws {
        guard generatedKeySizes.contains(bits) else {
            throw ProvisioError(
                .mdesKeySizeUnsupported,
                "MDES issuer keys are generated with \(generatedKeySizes.map(String.init).joined(separator: " or ")) bits.")
        }
    }

    /// A key from PEM (PKCS#8 "PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY"), 2048 bits or more.
    public init(privateKeyPEM: String) throws {
        let key: _RSA.Encryption.PrivateKey
        do {
            key = try _RSA.Encryption.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw ProvisioError(.mdesKeyInvalid, "The MDES issuer key is not an RSA private key of 2048 bits or more.")
        }
        try self.init(key)
    }

    /// A key from DER (PKCS#8 or PKCS#1), 2048 bits or more.
    public init(privateKeyDER: Data) throws {
        let key: _RSA.Encryption.PrivateKey
        do {
            key = try _RSA.Encryption.PrivateKey(derRepresentation: privateKeyDER)
        } catch {
            throw ProvisioError(.mdesKeyInvalid, "The MDES issuer key is not an RSA private key of 2048 bits or more.")
        }
        try self.init(key)
    }

    private init(_ key: _RSA.Encryption.PrivateKey) throws {
        // The raw RSA operation of the OAEP-SHA512 path needs an RSA key whose modulus is whole bytes.
        guard key.keySizeInBits >= 2048, key.keySizeInBits % 8 == 0 else {
            throw ProvisioError(.mdesKeyInvalid, "The MDES issuer key is not an RSA private key of 2048 bits or more.")
        }
        self.privateKeyDER = key.derRepresentation
        self.publicKeyDER = key.publicKey.derRepresentation
        self.publicKeyFingerprint = BinaryText.lowercaseHex(SHA256.hash(data: publicKeyDER))
        self.fingerprintAliases = [
            Data(SHA256.hash(data: publicKeyDER)), Data(Insecure.SHA1.hash(data: publicKeyDER)),
        ]
        self.modulusByteCount = key.keySizeInBits / 8
    }

    /// The modulus length in bits.
    public var keySizeInBits: Int { modulusByteCount * 8 }

    /// The private key as PKCS#8 PEM, for the caller to seal like the other key material.
    public var privateKeyPEM: String {
        get throws { try _RSA.Encryption.PrivateKey(derRepresentation: privateKeyDER).pkcs8PEMRepresentation }
    }

    /// The public key as PEM ("PUBLIC KEY", SubjectPublicKeyInfo), for the issuer to register.
    public var publicKeyPEM: String {
        get throws { try _RSA.Encryption.PublicKey(derRepresentation: publicKeyDER).pemRepresentation }
    }

    /// Whether a payload's fingerprint (already hex-decoded) names this key.
    func isNamed(by fingerprint: Data) -> Bool {
        fingerprintAliases.contains { ConstantTime.equal(fingerprint, $0) }
    }
}
