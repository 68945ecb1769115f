import Foundation

/// What the issuer returns to PassKit, base64 encoded: `encryptedPassData`, `activationData`
/// and either `ephemeralPublicKey` (ECC_V2) or `wrappedKey` (RSA_V2).
public struct ApplePayloadResponse: Codable, Hashable, Sendable {
    public var encryptedPassData: String
    public var activationData: String
    public var ephemeralPublicKey: String?
    public var wrappedKey: String?

    public init(sealed: SealedPassData, activationData: String) {
        self.encryptedPassData = sealed.encryptedPassData.base64EncodedString()
        self.activationData = activationData
        switch sealed.keyMaterial {
        case .ephemeralPublicKey(let key): self.ephemeralPublicKey = key.base64EncodedString()
        case .wrappedKey(let key): self.wrappedKey = key.base64EncodedString()
        }
    }

    /// The sealed part back as bytes (the sandbox's Apple service reads it this way); nil when
    /// it is not base64 or carries both key materials or neither.
    public func sealedPassData() -> SealedPassData? {
        guard let data = Data(base64Encoded: encryptedPassData), (ephemeralPublicKey == nil) != (wrappedKey == nil) else {
            return nil
        }
        if let key = ephemeralPublicKey.flatMap({ Data(base64Encoded: $0) }) {
            return SealedPassData(encryptedPassData: data, keyMaterial: .ephemeralPublicKey(key))
        }
        if let key = wrappedKey.flatMap({ Data(base64Encoded: $0) }) {
            return SealedPassData(encryptedPassData: data, keyMaterial: .wrappedKey(key))
        }
        return nil
    }
}
