import ProvisioCrypto
import ProvisioSandbox
import ProvisioSandboxAPI

extension ApplePayloadResponse {
    /// The issuer's answer handed to Apple: the fields of Provisio's `apple-pay` answer.
    init(_ request: Components.Schemas.SubmissionRequest) {
        self.init(
            encryptedPassData: request.encryptedPassData, activationData: request.activationData,
            ephemeralPublicKey: request.ephemeralPublicKey, wrappedKey: request.wrappedKey)
    }
}
