import Crypto
import Foundation
import ProvisioCore

/// The AES-256-GCM layer shared by ECC_V2 and RSA_V2: all-zero 96-bit IV, no associated data,
/// output `ciphertext ‖ tag`.
///
/// A fixed IV is safe here only because every message is sealed under a key that is used once
/// (derived from a fresh ephemeral key, or drawn fresh and wrapped); never reuse a key with it.
enum PassDataCipher {
    static let tagLength = 16
    static let zeroNonce = try! AES.GCM.Nonce(data: Data(count: 12))

    static func seal<Plaintext: DataProtocol>(_ plaintext: Plaintext, key: SymmetricKey) throws -> Data {
        let box = try AES.GCM.seal(plaintext, using: key, nonce: zeroNonce)
        var out = Data(capacity: box.ciphertext.count + tagLength)
        out.append(box.ciphertext)
        out.append(box.tag)
        return out
    }

    static func open(_ encryptedPassData: Data, key: SymmetricKey) throws -> Data {
        guard encryptedPassData.count >= tagLength else {
            throw ProvisioError(.payloadMalformed, "The encrypted pass data is shorter than its 16-byte tag.")
        }
        let split = encryptedPassData.index(encryptedPassData.endIndex, offsetBy: -tagLength)
        do {
            let box = try AES.GCM.SealedBox(
                nonce: zeroNonce,
                ciphertext: encryptedPassData[..<split],
                tag: encryptedPassData[split...]
            )
            return try AES.GCM.open(box, using: key)
        } catch {
            throw ProvisioError(
                .payloadAuthenticationFailed,
                "The encrypted pass data does not authenticate under the derived key (tampered or wrong key)."
            )
        }
    }
}
