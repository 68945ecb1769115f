import ProvisioCore

/// The push-tokenize data Google Pay (TapAndPay `PushTokenizeRequest`) and Samsung Pay take
/// from the issuer app: an opaque payment card only the network can read, plus display data.
public struct WalletPushData: Sendable, Equatable {
    public var opaquePaymentCard: String
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
