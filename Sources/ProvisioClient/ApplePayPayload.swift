import Foundation
import ProvisioCore

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
    func jsonBody() throws -> Data {
        struct Body: Encodable {
            var certificates: [String]
            var nonce: String
            var nonce_signature: String
            var encryption_scheme: String
            var device_type: String?
        }
        let body = Body(
            certificates: certificates.map { $0.base64EncodedString() }, nonce: nonce.base64EncodedString(),
            nonce_signature: nonceSignature.base64EncodedString(), encryption_scheme: encryptionScheme.rawValue,
            device_type: deviceType?.rawValue)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(body)
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
    static func decode(_ data: Data) -> ApplePayPayload? {
        struct Wire: Decodable {
            var encrypted_pass_data: String
            var activation_data: String
            var ephemeral_public_key: String?
            var wrapped_key: String?
        }
        guard let wire = try? JSONDecoder().decode(Wire.self, from: data),
            let encrypted = Data(base64Encoded: wire.encrypted_pass_data), !encrypted.isEmpty,
            let activation = Data(base64Encoded: wire.activation_data)
        else { return nil }
        let ephemeral = wire.ephemeral_public_key.flatMap { Data(base64Encoded: $0) }
        let wrapped = wire.wrapped_key.flatMap { Data(base64Encoded: $0) }
        guard (ephemeral == nil) != (wrapped == nil),
            (wire.ephemeral_public_key == nil) == (ephemeral == nil), (wire.wrapped_key == nil) == (wrapped == nil)
        else { return nil }
        return ApplePayPayload(
            encryptedPassData: encrypted, activationData: activation, ephemeralPublicKey: ephemeral, wrappedKey: wrapped)
    }
}
