import Crypto
import Foundation
import ProvisioCore

/// Opens an ECC_V2 payload with the leaf's private key (Apple-service side; the sandbox uses it).
public struct ECCV2Opener: Sendable {
    public let privateKey: P256.KeyAgreement.PrivateKey

    public init(privateKey: P256.KeyAgreement.PrivateKey) {
        self.privateKey = privateKey
    }

    public func open(encryptedPassData: Data, ephemeralPublicKey: Data) throws -> Data {
        let peer: P256.KeyAgreement.PublicKey
        do {
            guard ephemeralPublicKey.count == 65, ephemeralPublicKey.first == 0x04 else { throw CryptoKitError.incorrectKeySize }
            peer = try P256.KeyAgreement.PublicKey(x963Representation: ephemeralPublicKey)
        } catch {
            throw ProvisioError(
                .invalidEphemeralPublicKey, "The ephemeral public key is not an uncompressed P-256 point.")
        }
        let sharedSecret: SharedSecret
        do {
            sharedSecret = try privateKey.sharedSecretFromKeyAgreement(with: peer)
        } catch {
            throw ProvisioError(.invalidEphemeralPublicKey, "Key agreement with the ephemeral public key failed.")
        }
        let key = ECCV2KeyDerivation.symmetricKey(sharedSecret: sharedSecret, ephemeralPublicKey: ephemeralPublicKey)
        return try PassDataCipher.open(encryptedPassData, key: key)
    }

    public func open(_ sealed: SealedPassData) throws -> Data {
        guard case .ephemeralPublicKey(let ephemeralPublicKey) = sealed.keyMaterial else {
            throw ProvisioError(.payloadMalformed, "An ECC_V2 payload carries an ephemeral public key, not a wrapped key.")
        }
        return try open(encryptedPassData: sealed.encryptedPassData, ephemeralPublicKey: ephemeralPublicKey)
    }
}
