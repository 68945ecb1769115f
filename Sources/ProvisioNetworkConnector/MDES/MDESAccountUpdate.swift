import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioMDESCustomerServiceAPI

/// A reissued card's new details as MDES's token update carries them: `NewAccount`
/// (`UpdateAccountPlaintext`, the new number and/or the MMYY expiry), encrypted for Mastercard's
/// key into `EncryptedAccountInformation` by the same `MDESPayloadEncryptor` the sandbox's MDES
/// seals its payloads with. The plaintext exists only inside `encrypt`: it may hold a card
/// number, so it is never logged, kept or put in an error.
struct MDESAccountUpdate: Sendable {
    /// The new number, when the card was replaced (`replaceFundingAccount`); a reissue keeps the
    /// number and sends none.
    var primaryAccountNumber: PrimaryAccountNumber?
    var expiry: CardExpiry?

    /// The encrypted object for `TokenUpdateRequest`. The envelope is OAEP-SHA-256 and AES-GCM,
    /// which the document requires `OaepHashingAlgorithm` for (no PKCS#1 v1.5).
    func encrypt(for certificate: MastercardEncryptionCertificate) throws -> Components.Schemas.EncryptedAccountInformation {
        let plaintext = Components.Schemas.UpdateAccountPlaintext(
            newAccount: .init(accountPan: primaryAccountNumber?.unmaskedDigits, expirationDate: expiry?.compact))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let envelope: MDESEnvelope
        do {
            envelope = try certificate.encryptor(options: MDESEnvelopeOptions(keyWrapping: .oaepSHA256, cipherMode: .gcm))
                .seal(try encoder.encode(plaintext))
        } catch {
            // Neither the plaintext nor the encoder's words: only that it failed.
            throw ProvisioError(
                .networkRefused, "The reissued card's details could not be encrypted for Mastercard's encryption key.")
        }
        typealias Information = Components.Schemas.EncryptedAccountInformation
        return Information(
            encryptedData: envelope.encryptedData, publicKeyFingerprint: envelope.publicKeyFingerprint,
            encryptedKey: envelope.encryptedKey, oaepHashingAlgorithm: .sha256, iv: envelope.iv,
            algorithmCipherMode: Information.AlgorithmCipherModePayload(rawValue: envelope.algorithmCipherMode),
            tag: envelope.tag, aad: envelope.aad)
    }
}
