import Foundation
import ProvisioCore
import ProvisioCrypto

/// `POST …/provisioning/apple-pay`: what PassKit handed the app.
struct ApplePayBody: RequestBody {
    static let fields: Set<String> = ["certificates", "nonce", "nonce_signature", "encryption_scheme", "device_type"]

    var certificates: [String]
    var nonce: String
    var nonceSignature: String
    var encryptionScheme: String?
    var deviceType: String?

    enum CodingKeys: String, CodingKey {
        case certificates, nonce
        case nonceSignature = "nonce_signature"
        case encryptionScheme = "encryption_scheme"
        case deviceType = "device_type"
    }

    var input: ProvisioningService.ApplePayInput {
        .init(
            certificates: certificates, nonce: nonce, nonceSignature: nonceSignature, encryptionScheme: encryptionScheme,
            deviceType: deviceType)
    }
}

struct ApplePayWire: Encodable {
    var encryptedPassData: String
    var activationData: String
    var ephemeralPublicKey: String?
    var wrappedKey: String?

    enum CodingKeys: String, CodingKey {
        case encryptedPassData = "encrypted_pass_data"
        case activationData = "activation_data"
        case ephemeralPublicKey = "ephemeral_public_key"
        case wrappedKey = "wrapped_key"
    }

    init(_ response: ApplePayloadResponse) {
        self.encryptedPassData = response.encryptedPassData
        self.activationData = response.activationData
        self.ephemeralPublicKey = response.ephemeralPublicKey
        self.wrappedKey = response.wrappedKey
    }
}

/// `POST …/provisioning/google-pay` and `…/samsung-pay`.
struct PushProvisioningBody: RequestBody {
    static let fields: Set<String> = ["user_address"]
    static let nestedFields: [String: Set<String>] = [
        "user_address": [
            "name", "address1", "address2", "locality", "administrative_area", "country_code", "postal_code", "phone_number",
        ]
    ]
    var userAddress: UserAddress?

    enum CodingKeys: String, CodingKey {
        case userAddress = "user_address"
    }
}
