import Crypto
import Foundation

/// Apple's ECC_V2 key derivation (NIST SP 800-56A single-step KDF with SHA-256, one round):
///
///     key = SHA-256( 00000001 ‖ Z ‖ 0x0D ‖ "id-aes256-GCM" ‖ "Apple" ‖ EPK )
///
/// Z is the ECDH x-coordinate, EPK the ephemeral public key as a 65-byte uncompressed point.
/// The counter comes first — which is why swift-crypto's X9.63 derivation (Z ‖ counter) does
/// not give this key.
enum ECCV2KeyDerivation {
    static let counter: [UInt8] = [0x00, 0x00, 0x00, 0x01]
    static let algorithmID: [UInt8] = [0x0D] + Array("id-aes256-GCM".utf8)
    static let partyUInfo: [UInt8] = Array("Apple".utf8)

    static func symmetricKey(sharedSecret: SharedSecret, ephemeralPublicKey: Data) -> SymmetricKey {
        sharedSecret.withUnsafeBytes { z in
            symmetricKey(sharedSecretBytes: z, ephemeralPublicKey: ephemeralPublicKey)
        }
    }

    static func symmetricKey(sharedSecretBytes z: UnsafeRawBufferPointer, ephemeralPublicKey: Data) -> SymmetricKey {
        var hasher = SHA256()
        hasher.update(data: counter)
        hasher.update(bufferPointer: z)
        hasher.update(data: algorithmID)
        hasher.update(data: partyUInfo)
        hasher.update(data: ephemeralPublicKey)
        return SymmetricKey(data: hasher.finalize())
    }
}
