/// One issuer / consumer pair in the extension's configuration, with the cards it offers.
/// An app that serves several issuers, or several consumers under one login, lists one each.
public struct ExtensionAccount: Codable, Hashable, Sendable, Identifiable {
    /// What identifies an account: the issuer and the consumer (the cardholder) at that issuer.
    public struct ID: Codable, Hashable, Sendable, CustomStringConvertible {
        /// The issuer (a tenant of Provisio, or a program the app serves).
        public var issuerID: String
        /// The cardholder at that issuer.
        public var consumerID: String

        public init(issuerID: String, consumerID: String) {
            self.issuerID = issuerID
            self.consumerID = consumerID
        }

        public var description: String { "\(issuerID)/\(consumerID)" }
    }

    /// The issuer (a tenant of Provisio, or a program the app serves).
    public var issuerID: String
    /// The cardholder at that issuer.
    public var consumerID: String
    /// The cards offered to Wallet, in the order the app wants them shown.
    public var cards: [WalletCard]

    public init(issuerID: String, consumerID: String, cards: [WalletCard]) {
        self.issuerID = issuerID
        self.consumerID = consumerID
        self.cards = cards
    }

    /// The issuer / consumer pair.
    public var id: ID { ID(issuerID: issuerID, consumerID: consumerID) }
}
