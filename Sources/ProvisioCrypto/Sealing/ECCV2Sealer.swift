import Crypto
import Foundation
import ProvisioCore

/// Seals a pass payload for Apple with ECC_V2 (issuer side).
///
/// Each call draws a fresh ephemeral P-256 key (`EphemeralKeyAgreementKey`), agrees a secret with the recipient (the public
/// key of Apple's `ecc-crypto-services-encipherment` leaf), derives the AES-256 key with
/// `ECCV2KeyDerivation` and encrypts with `PassDataCipher`.
public struct ECCV2Sealer: Sendable {
    public let recipient: P256.KeyAgreement.PublicKey

    public init(recipient: P256.KeyAgreement.PublicKey) {
        self.recipient = recipient
    }

    public func seal<Plaintext: DataProtocol>(_ plaintext: Plaintext) throws -> SealedPassData {
        try seal(plaintext, ephemeralKey: EphemeralKeyAgreementKey.generate())
    }

    /// The seam for known-answer tests: the public API never lets a caller choose the key.
    func seal<Plaintext: DataProtocol>(_ plaintext: Plaintext, ephemeralKey: P256.KeyAgreement.PrivateKey) throws
        -> SealedPassData
    {
        let ephemeralPublicKey = ephemeralKey.publicKey.x963Representation
        let sharedSecret = try ephemeralKey.sharedSecretFromKeyAgreement(with: recipient)
        let key = ECCV2KeyDerivation.symmetricKey(sharedSecret: sharedSecret, ephemeralPublicKey: ephemeralPublicKey)
        return SealedPassData(
            encryptedPassData: try PassDataCipher.seal(plaintext, key: key),
            keyMaterial: .ephemeralPublicKey(ephemeralPublicKey)
        )
    }
}
