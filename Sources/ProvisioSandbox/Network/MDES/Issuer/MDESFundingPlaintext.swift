/// What the sandbox's MDES encrypts into `fundingAccountInfo.encryptedPayload`, in the document's
/// names (`FundingAccountPlaintext`): the card when it asks for a decision, the token when it
/// reports one, and always `dataValidUntilTimestamp`, after which the issuer must refuse it.
/// Holds a card number: it exists only to be encoded and sealed.
struct MDESFundingPlaintext: Encodable, Sendable {
    struct CardAccountData: Encodable, Sendable {
        var accountNumber: String
        var expiryMonth: String
        var expiryYear: String
    }

    struct TokenData: Encodable, Sendable {
        var token: String
        var expiryMonth: String
        var expiryYear: String
    }

    struct AccountHolderData: Encodable, Sendable {
        struct PhoneNumber: Encodable, Sendable {
            var countryDialInCode: String
            var phoneNumber: String
        }

        var accountHolderEmailAddress: String?
        var accountHolderMobilePhoneNumber: PhoneNumber?
    }

    var dataValidUntilTimestamp: String
    var source: String?
    var cardAccountData: CardAccountData?
    var tokenData: TokenData?
    /// What the wallet knows of the cardholder: the issuer offers codes to these.
    var accountHolderData: AccountHolderData?
}
