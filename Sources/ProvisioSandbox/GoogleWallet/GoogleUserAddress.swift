/// TapAndPay's `UserAddress`, as the push-tokenize request carries it (Expensify's wrapper's
/// type; docs/android-wallets.md §3). The sandbox's Google Wallet takes it and checks nothing in it.
public struct GoogleUserAddress: Sendable, Hashable {
    public var name: String
    public var address1: String?
    public var address2: String?
    public var locality: String?
    public var administrativeArea: String?
    public var countryCode: String?
    public var postalCode: String?
    public var phoneNumber: String?

    public init(
        name: String, address1: String? = nil, address2: String? = nil, locality: String? = nil,
        administrativeArea: String? = nil, countryCode: String? = nil, postalCode: String? = nil, phoneNumber: String? = nil
    ) {
        self.name = name
        self.address1 = address1
        self.address2 = address2
        self.locality = locality
        self.administrativeArea = administrativeArea
        self.countryCode = countryCode
        self.postalCode = postalCode
        self.phoneNumber = phoneNumber
    }
}
