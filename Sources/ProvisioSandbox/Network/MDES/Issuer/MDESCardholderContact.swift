/// The cardholder's phone and email as the wallet tells MDES (`accountHolderData`), from which
/// the issuer offers masked one-time-code channels. The sandbox plays one cardholder.
public struct MDESCardholderContact: Sendable, Hashable {
    /// Without the `+`, e.g. `1`.
    public var countryDialInCode: String
    public var phoneNumber: String
    public var email: String?

    public init(countryDialInCode: String, phoneNumber: String, email: String?) {
        self.countryDialInCode = countryDialInCode
        self.phoneNumber = phoneNumber
        self.email = email
    }

    /// The sandbox's cardholder: the same phone (ending 4821) the demo's issuer webhook names.
    public static let sandbox = MDESCardholderContact(
        countryDialInCode: "1", phoneNumber: "4155554821", email: "cardholder@example.com")
}
