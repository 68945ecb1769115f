import Foundation
import ProvisioCrypto

extension ApplePayloadResponse {
    /// The issuer's answer as Apple's service receives it, four base64 fields as sent. Provisio
    /// only builds one from sealed bytes; here the fields are taken as they came, and the
    /// service checks every one of them (base64, exactly one key material).
    package init(encryptedPassData: String, activationData: String, ephemeralPublicKey: String?, wrappedKey: String?) {
        self.init(
            sealed: SealedPassData(encryptedPassData: Data(), keyMaterial: .ephemeralPublicKey(Data())),
            activationData: activationData)
        self.encryptedPassData = encryptedPassData
        self.ephemeralPublicKey = ephemeralPublicKey
        self.wrappedKey = wrappedKey
    }
}
