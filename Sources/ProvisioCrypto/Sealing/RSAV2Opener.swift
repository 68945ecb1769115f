import Crypto
import Foundation
import ProvisioCore
import _CryptoExtras

/// Opens an RSA_V2 payload (see `RSAV2Sealer` for the construction).
public struct RSAV2Opener: Sendable {
    /// PKCS#8 DER; swift-crypto's RSA keys are not `Sendable`, so the opener keeps bytes.
    let privateKeyDER: Data

    public init(privateKey: _RSA.Encryption.PrivateKey) {
        self.privateKeyDER = privateKey.derRepresentation
    }

    public func open(encryptedPassData: Data, wrappedKey: Data) throws -> Data {
        let privateKey = try _RSA.Encryption.PrivateKey(derRepresentation: privateKeyDER)
        let keyBytes: Data
        do {
            keyBytes = try privateKey.decrypt(wrappedKey, padding: .PKCS1_OAEP_SHA256)
        } catch {
            throw ProvisioError(.invalidWrappedKey, "The wrapped key does not unwrap with this RSA key.")
        }
        guard keyBytes.count == 32 else {
            throw ProvisioError(.invalidWrappedKey, "The wrapped key is not a 256-bit AES key.")
        }
        return try PassDataCipher.open(encryptedPassData, key: SymmetricKey(data: keyBytes))
    }

    public func open(_ sealed: SealedPassData) throws -> Data {
        guard case .wrappedKey(let wrappedKey) = sealed.keyMaterial else {
            throw ProvisioError(.payloadMalformed, "An RSA_V2 payload carries a wrapped key, not an ephemeral public key.")
        }
        return try open(encryptedPassData: sealed.encryptedPassData, wrappedKey: wrappedKey)
    }
}
