import Foundation
import ProvisioCore
import ProvisioMobileAPI

/// What PassKit handed `generateRequestWithCertificateChain`, for Provisio's Apple Pay route.
public struct ApplePayPayloadRequest: Sendable, Hashable {
    /// DER certificates, leaf first.
    public var certificates: [Data]
    public var nonce: Data
    public var nonceSignature: Data
    public var encryptionScheme: EncryptionScheme
    /// The device, when the app knows it (PassKit does not say in the in-app flow).
    public var deviceType: DeviceType?

    public init(
        certificates: [Data], nonce: Data, nonceSignature: Data, encryptionScheme: EncryptionScheme = .eccV2,
        deviceType: DeviceType? = nil
    ) {
        self.certificates = certificates
        self.nonce = nonce
        self.nonceSignature = nonceSignature
        self.encryptionScheme = encryptionScheme
        self.deviceType = deviceType
    }

    /// The JSON body: certificates as base64 DER, nonce and signature as base64.
    /// As the generated wire type: binary values base64 encoded.
    var wire: Components.Schemas.ApplePayRequest {
        Components.Schemas.ApplePayRequest(
            certificates: certificates.map { $0.base64EncodedString() }, nonce: nonce.base64EncodedString(),
            nonceSignature: nonceSignature.base64EncodedString(),
            encryptionScheme: encryptionScheme.rawValue,
            deviceType: deviceType.flatMap { Components.Schemas.DeviceType(rawValue: $0.rawValue) })
    }
}

/// Provisio's answer: the values for `PKAddPaymentPassRequest`, decoded from base64.
public struct ApplePayPayload: Sendable, Hashable {
    public var encryptedPassData: Data
    public var activationData: Data
    /// ECC_V2 only.
    public var ephemeralPublicKey: Data?
    /// RSA_V2 only.
    public var wrappedKey: Data?

    public init(encryptedPassData: Data, activationData: Data, ephemeralPublicKey: Data? = nil, wrappedKey: Data? = nil) {
        self.encryptedPassData = encryptedPassData
        self.activationData = activationData
        self.ephemeralPublicKey = ephemeralPublicKey
        self.wrappedKey = wrappedKey
    }

    /// Decodes the wire JSON; exactly one of the two keys must be there and everything must be base64.
    /// From the generated wire type; nil unless every value is base64 and exactly one of the
    /// two key fields is present.
    init?(_ wire: Components.Schemas.ApplePayPayload) {
        guard let encrypted = Data(base64Encoded: wire.encryptedPassData), !encrypted.isEmpty,
            let activation = Data(base64Encoded: wire.activationData)
        else { return nil }
        let ephemeral = wire.ephemeralPublicKey.flatMap { Data(base64Encoded: $0) }
        let wrapped = wire.wrappedKey.flatMap { Data(base64Encoded: $0) }
        guard (ephemeral == nil) != (wrapped == nil),
            (wire.ephemeralPublicKey == nil) == (ephemeral == nil), (wire.wrappedKey == nil) == (wrapped == nil)
        else { return nil }
        self.init(encryptedPassData: encrypted, activationData: activation, ephemeralPublicKey: ephemeral, wrappedKey: wrapped)
    }
}
