import Crypto
import Foundation
import ProvisioCore
import _CryptoExtras

/// Seals an MDES digital envelope for the receiver's RSA public key, written from the MDES
/// documents (docs/mdes.md, "The payload encryption"), not from `MDESPayloadDecrypter`, so that
/// each side of a test is checked by code written apart from it. Two senders use it: the
/// sandbox's MDES, for what MDES sends the issuer in `fundingAccountInfo.encryptedPayload` (the
/// issuer's key), and Provisio's MDES connector, for `EncryptedAccountInformation` of a token
/// update (Mastercard's key).
///
/// A fresh AES key per payload (128 or 256 bits), wrapped with the receiver's RSA public key
/// (OAEP-SHA-256, OAEP-SHA-512 or PKCS#1 v1.5), the JSON in AES-GCM (12-byte IV, 16-byte tag, 16
/// random bytes of AAD, which the documents leave open) or AES-CBC with PKCS#7, all hex.
/// `publicKeyFingerprint` is SHA-256 of the key's DER SubjectPublicKeyInfo, the value `provisio
/// tenants mdes-key` prints for the issuer to register (or, as an option, its SHA-1).
public struct MDESPayloadEncryptor: Sendable {
    public let publicKeyFingerprint: String
    public let options: MDESEnvelopeOptions
    /// DER SubjectPublicKeyInfo: swift-crypto's RSA key type is not `Sendable`.
    private let publicKeyDER: Data
    private let rawPublicKey: RSAPublicOperation
    private let random: any MDESRandomSource

    /// - Parameter publicKeyPEM: the receiver's key ("PUBLIC KEY" PEM), as `tenants mdes-key`
    ///   prints it, or the key of Mastercard's encryption certificate.
    public init(
        publicKeyPEM: String, options: MDESEnvelopeOptions = MDESEnvelopeOptions(),
        random: any MDESRandomSource = SystemMDESRandomSource()
    ) throws {
        guard [128, 256].contains(options.aesKeyBits) else {
            throw ProvisioError(.mdesEncryptionKeyInvalid, "The one-time AES key is 128 or 256 bits.")
        }
        do {
            let key = try _RSA.Encryption.PublicKey(pemRepresentation: publicKeyPEM)
            let primitives = try _RSA.Signing.PublicKey(derRepresentation: key.derRepresentation).getKeyPrimitives()
            self.publicKeyDER = key.derRepresentation
            self.rawPublicKey = try RSAPublicOperation(
                modulus: primitives.modulus, publicExponent: primitives.publicExponent)
            self.publicKeyFingerprint =
                switch options.fingerprint {
                case .sha256: BinaryText.lowercaseHex(SHA256.hash(data: key.derRepresentation))
                case .sha1: BinaryText.lowercaseHex(Insecure.SHA1.hash(data: key.derRepresentation))
                }
        } catch {
            throw ProvisioError(
                .mdesEncryptionKeyInvalid, "The MDES encryption key is not an RSA public key (PEM) of 2048 bits or more.")
        }
        self.options = options
        self.random = random
    }

    /// Encrypts `plaintext` (the UTF-8 JSON of the payload) in a fresh envelope.
    public func seal(_ plaintext: Data) throws -> MDESEnvelope {
        let keyBytes = random.bytes(options.aesKeyBits / 8)
        let key = SymmetricKey(data: keyBytes)
        do {
            let wrapped = try wrap(keyBytes)
            switch options.cipherMode {
            case .gcm:
                let iv = random.bytes(12)
                let aad = random.bytes(16)
                let box = try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: iv), authenticating: aad)
                return MDESEnvelope(
                    encryptedData: BinaryText.lowercaseHex(box.ciphertext), encryptedKey: BinaryText.lowercaseHex(wrapped),
                    publicKeyFingerprint: publicKeyFingerprint, oaepHashingAlgorithm: oaepField,
                    iv: BinaryText.lowercaseHex(iv), algorithmCipherMode: "GCM", tag: BinaryText.lowercaseHex(box.tag),
                    aad: BinaryText.lowercaseHex(aad))
            case .cbc:
                let iv = random.bytes(16)
                let ciphertext = try AES._CBC.encrypt(plaintext, using: key, iv: AES._CBC.IV(ivBytes: iv))
                return MDESEnvelope(
                    encryptedData: BinaryText.lowercaseHex(ciphertext), encryptedKey: BinaryText.lowercaseHex(wrapped),
                    publicKeyFingerprint: publicKeyFingerprint, oaepHashingAlgorithm: oaepField,
                    iv: BinaryText.lowercaseHex(iv), algorithmCipherMode: "CBC", tag: nil, aad: nil)
            }
        } catch {
            throw ProvisioError(.mdesEncryptionFailed, "The payload could not be encrypted for the receiver's MDES key.")
        }
    }

    /// The document's `oaepHashingAlgorithm`: absent means PKCS#1 v1.5.
    private var oaepField: String? {
        switch options.keyWrapping {
        case .oaepSHA256: "SHA256"
        case .oaepSHA512: "SHA512"
        case .pkcs1v15: nil
        }
    }

    private func wrap(_ keyBytes: [UInt8]) throws -> Data {
        let publicKey = try _RSA.Encryption.PublicKey(derRepresentation: publicKeyDER)
        switch options.keyWrapping {
        case .oaepSHA256:
            return try publicKey.encrypt(keyBytes, padding: .PKCS1_OAEP_SHA256)
        case .pkcs1v15:
            return try publicKey.encrypt(keyBytes, padding: ._WEAK_AND_INSECURE_PKCS_V1_5)
        case .oaepSHA512:
            // swift-crypto has no OAEP-SHA-512: pad here, then the bare public operation.
            let encoded = try RSAOAEPEncoding.encode(
                keyBytes, modulusByteCount: rawPublicKey.modulusByteCount, hash: SHA512.self,
                seed: random.bytes(SHA512.Digest.byteCount))
            return Data(try rawPublicKey.apply(encoded))
        }
    }
}
