import Crypto
import Foundation
import _CryptoExtras

/// The AES step of an MDES payload, its parameters already checked.
enum MDESPayloadCipher {
    case gcm(nonce: AES.GCM.Nonce, tag: Data, aad: Data?)
    case cbc(iv: AES._CBC.IV)

    /// The plaintext; throws when the tag or the PKCS#7 padding does not check.
    func open(_ data: Data, key: SymmetricKey) throws -> Data {
        switch self {
        case .gcm(let nonce, let tag, let aad):
            let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: data, tag: tag)
            if let aad {
                return try AES.GCM.open(box, using: key, authenticating: aad)
            }
            return try AES.GCM.open(box, using: key)
        case .cbc(let iv):
            return try AES._CBC.decrypt(data, using: key, iv: iv)
        }
    }
}
