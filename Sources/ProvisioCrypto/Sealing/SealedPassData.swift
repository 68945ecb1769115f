import Foundation

/// What PassKit's `PKAddPaymentPassRequest` carries back to Apple: the encrypted pass data and,
/// depending on the scheme, the ephemeral public key (ECC_V2) or the wrapped key (RSA_V2).
public struct SealedPassData: Hashable, Sendable {
    public enum KeyMaterial: Hashable, Sendable {
        /// ECC_V2: the sender's ephemeral P-256 public key, 65-byte uncompressed point.
        case ephemeralPublicKey(Data)
        /// RSA_V2: the AES-256 key, wrapped with RSA-OAEP-SHA256 to the leaf's key.
        case wrappedKey(Data)
    }

    /// AES-256-GCM ciphertext followed by its 16-byte tag.
    public let encryptedPassData: Data
    public let keyMaterial: KeyMaterial

    public init(encryptedPassData: Data, keyMaterial: KeyMaterial) {
        self.encryptedPassData = encryptedPassData
        self.keyMaterial = keyMaterial
    }
}
