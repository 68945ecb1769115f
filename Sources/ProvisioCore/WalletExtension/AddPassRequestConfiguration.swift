/// Mirrors the fields Provisio sets on `PKAddPaymentPassRequestConfiguration`, for the in-app add
/// and for pass entries alike.
public struct AddPassRequestConfiguration: Codable, Hashable, Sendable {
    /// Always ECC_V2, the scheme Apple asks issuers to support.
    public var encryptionScheme: EncryptionScheme
    /// The name on the card, if known.
    public var cardholderName: String?
    /// The card's last four digits.
    public var primaryAccountSuffix: String
    /// The card's name as Wallet shows it while adding.
    public var localizedDescription: String
    /// The issuer's card identifier, which Wallet stores on the pass.
    public var primaryAccountIdentifier: String
    /// Only a network known to match the card; nil otherwise (`.unknown` is dropped: a wrong
    /// network can make the add fail, leaving it out never does).
    public var paymentNetwork: PaymentNetwork?

    public init(
        encryptionScheme: EncryptionScheme = .eccV2, cardholderName: String?, primaryAccountSuffix: String,
        localizedDescription: String, primaryAccountIdentifier: String, paymentNetwork: PaymentNetwork?
    ) {
        self.encryptionScheme = encryptionScheme
        self.cardholderName = cardholderName
        self.primaryAccountSuffix = primaryAccountSuffix
        self.localizedDescription = localizedDescription
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.paymentNetwork = paymentNetwork == .unknown ? nil : paymentNetwork
    }

    /// The configuration for a configured card (its title is the description).
    public init(card: WalletCard) {
        self.init(
            cardholderName: card.cardholderName, primaryAccountSuffix: card.last4, localizedDescription: card.title,
            primaryAccountIdentifier: card.primaryAccountIdentifier, paymentNetwork: card.network)
    }
}
