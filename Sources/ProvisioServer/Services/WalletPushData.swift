import ProvisioCore

/// The push-tokenize data Google Pay (TapAndPay `PushTokenizeRequest`) takes from the issuer
/// app, and Samsung Pay's payload is made from: an opaque payment card only the network can
/// read, plus display data.
public struct WalletPushData: Sendable, Equatable {
    /// The TSP OPC: a JWE to the card network's key.
    public var opaquePaymentCard: String
    /// Unified Push Provisioning: Google's OPC, signed by the tenant's issuer key and encrypted
    /// to Google's keys, in base64; nil for the legacy push.
    public var googleOpaquePaymentCard: String? = nil
    public var displayName: String
    public var lastDigits: String
    public var network: String
    public var tokenServiceProvider: String
    public var userAddress: UserAddress
}

/// The cardholder's address as TapAndPay's `UserAddress` carries it.
public struct UserAddress: Sendable, Equatable {
    public var name: String
    public var address1: String?
    public var address2: String?
    public var locality: String?
    public var administrativeArea: String?
    public var countryCode: String?
    public var postalCode: String?
    public var phoneNumber: String?

    func validated() throws -> UserAddress {
        for (field, value) in [
            ("name", Optional(name)), ("address1", address1), ("address2", address2), ("locality", locality),
            ("administrative_area", administrativeArea), ("postal_code", postalCode), ("phone_number", phoneNumber),
        ] {
            if let value, value.unicodeScalars.count > 128 || value.contains(where: \.isNewline) {
                throw ProvisioError(.invalidParameter, "user_address.\(field) must be at most 128 characters on one line.")
            }
        }
        if let countryCode, countryCode.count != 2 || !countryCode.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ProvisioError(.invalidParameter, "user_address.country_code must be a two-letter ISO 3166-1 code.")
        }
        var copy = self
        copy.countryCode = countryCode?.uppercased()
        return copy
    }
}
