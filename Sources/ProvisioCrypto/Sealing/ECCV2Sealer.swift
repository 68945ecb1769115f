import Crypto
import Foundation
import ProvisioCore

/// Seals a pass payload for Apple with ECC_V2 (issuer side).
///
/// Each call draws a fresh ephemeral P-256 key (`EphemeralKeyAgreementKey`), agrees a secret with the recipient (the public
/// key of Apple's `ecc-crypto-services-encipherment` leaf), derives the AES-256 key with
/// `ECCV2KeyDerivation` and encrypts with `PassDataCipher`. With a `P256KeyAgreementTable` for
/// the recipient the agreement is a fixed-base multiplication; without one, swift-crypto's ECDH.
/// Both give the same secret.
public struct ECCV2Sealer: Sendable {
    public let recipient: P256.KeyAgreement.PublicKey
    let table: P256KeyAgreementTable?

    public init(recipient: P256.KeyAgreement.PublicKey) {
        self.recipient = recipient
        self.table = nil
    }

    /// Seals with the recipient's table once it has one (see `P256Recipient`).
    public init(recipient: P256Recipient) {
        self.recipient = recipient.key
        self.table = recipient.tableForSealing()
    }

    public init(table: P256KeyAgreementTable) {
        self.recipient = table.recipient
        self.table = table
    }

    public func seal<Plaintext: DataProtocol>(_ plaintext: Plaintext) throws -> SealedPassData {
        try seal(plaintext, ephemeralKey: EphemeralKeyAgreementKey.generate())
    }

    /// The seam for known-answer tests: the public API never lets a caller choose the key.
    func seal<Plaintext: DataProtocol>(_ plaintext: Plaintext, ephemeralKey: P256.KeyAgreement.PrivateKey) throws
        -> SealedPassData
    {
        let ephemeralPublicKey = ephemeralKey.publicKey.x963Representation
        let key = try symmetricKey(ephemeralKey: ephemeralKey, ephemeralPublicKey: ephemeralPublicKey)
        return SealedPassData(
            encryptedPassData: try PassDataCipher.seal(plaintext, key: key),
            keyMaterial: .ephemeralPublicKey(ephemeralPublicKey)
        )
    }

    private func symmetricKey(ephemeralKey: P256.KeyAgreement.PrivateKey, ephemeralPublicKey: Data) throws
        -> SymmetricKey
    {
        if let table,
            let key = table.withSharedSecret(
                ephemeralKey: ephemeralKey,
                {
                    ECCV2KeyDerivation.symmetricKey(sharedSecretBytes: $0, ephemeralPublicKey: ephemeralPublicKey)
                })
        {
            return key
        }
        let sharedSecret = try ephemeralKey.sharedSecretFromKeyAgreement(with: recipient)
        return ECCV2KeyDerivation.symmetricKey(sharedSecret: sharedSecret, ephemeralPublicKey: ephemeralPublicKey)
    }
}
