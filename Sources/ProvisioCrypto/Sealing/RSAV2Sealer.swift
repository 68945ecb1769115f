import Crypto
import Foundation
import ProvisioCore
import _CryptoExtras

/// Seals a pass payload with RSA_V2 — Provisio's construction, as Apple publishes no spec:
///
/// 1. draw a fresh 256-bit AES key K;
/// 2. `wrappedKey` = RSA-OAEP (SHA-256 for the hash and MGF1, empty label) of K under the leaf's
///    RSA public key (2048 bits or more);
/// 3. `encryptedPassData` = AES-256-GCM of the payload under K, all-zero 96-bit IV, no associated
///    data, `ciphertext ‖ tag` — the same layer as ECC_V2.
public struct RSAV2Sealer: Sendable {
    /// The recipient's key as SubjectPublicKeyInfo DER (swift-crypto's RSA keys are not
    /// `Sendable`; parsing the DER per seal costs microseconds next to the RSA operation).
    public let recipientSubjectPublicKeyInfo: Data

    public init(recipient: _RSA.Encryption.PublicKey) {
        self.recipientSubjectPublicKeyInfo = recipient.derRepresentation
    }

    /// Takes SubjectPublicKeyInfo DER; refuses keys under 2048 bits.
    public init(recipientSubjectPublicKeyInfo der: Data) throws {
        do {
            _ = try _RSA.Encryption.PublicKey(derRepresentation: der)
        } catch {
            throw ProvisioError(.chainWrongKeyType, "RSA_V2 needs an RSA public key of at least 2048 bits.")
        }
        self.recipientSubjectPublicKeyInfo = der
    }

    public func seal<Plaintext: DataProtocol>(_ plaintext: Plaintext) throws -> SealedPassData {
        let recipient = try _RSA.Encryption.PublicKey(derRepresentation: recipientSubjectPublicKeyInfo)
        let key = SymmetricKey(size: .bits256)
        let wrappedKey = try key.withUnsafeBytes { try recipient.encrypt(Data($0), padding: .PKCS1_OAEP_SHA256) }
        return SealedPassData(
            encryptedPassData: try PassDataCipher.seal(plaintext, key: key),
            keyMaterial: .wrappedKey(wrappedKey)
        )
    }
}
