import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioSandboxMDESCustomerServiceAPI

/// What a token update's `EncryptedAccountInformation` holds once Mastercard's key opened it:
/// `NewAccount`'s new number and/or MMYY expiry, at least one of them. Read with Provisio's
/// `MDESPayloadDecrypter` (the issuer encrypted with `MDESPayloadEncryptor`). A failure to open
/// is the decrypter's `mdes_*` code, one answer for every cause; a plaintext that is not the
/// document's is `sandbox_mdes_request_invalid`, and neither repeats a decrypted byte.
struct MDESNewAccount: Sendable {
    var primaryAccountNumber: PrimaryAccountNumber?
    var expiry: CardExpiry?

    init(_ information: Components.Schemas.EncryptedAccountInformation, decrypter: MDESPayloadDecrypter) throws {
        let opened = try decrypter.decrypt(
            MDESEncryptedPayload(
                encryptedData: information.encryptedData, encryptedKey: information.encryptedKey,
                publicKeyFingerprint: information.publicKeyFingerprint,
                oaepHashingAlgorithm: information.oaepHashingAlgorithm.rawValue, iv: information.iv,
                algorithmCipherMode: information.algorithmCipherMode?.rawValue, tag: information.tag, aad: information.aad))
        let invalid = ProvisioError(
            .sandboxMdesRequestInvalid,
            "EncryptedAccountInformation does not hold NewAccount with a valid AccountPan or ExpirationDate (MMYY).")
        guard let plaintext = try? JSONDecoder().decode(Components.Schemas.UpdateAccountPlaintext.self, from: opened.plaintext),
            let account = plaintext.newAccount
        else { throw invalid }
        do {
            primaryAccountNumber = try account.accountPan.map { try PrimaryAccountNumber($0) }
            expiry = try account.expirationDate.map { mmyy in
                guard mmyy.utf8.count == 4 else { throw invalid }
                return try CardExpiry(slashed: "\(mmyy.prefix(2))/\(mmyy.suffix(2))")
            }
        } catch {
            throw invalid
        }
        guard primaryAccountNumber != nil || expiry != nil else { throw invalid }
    }
}
