import ProvisioCore

/// What the network hands a wallet to install for a new token. No card number: the wallet
/// shows the funding card's last four digits only.
public struct SandboxWalletCard: Sendable, Hashable {
    /// The issuer's id of the token (TapAndPay's issuer token id); the network's reference
    /// when the issuer gave none.
    public let issuerTokenID: String
    public let networkTokenRef: String
    /// The card as Apple names it in PassKit (the issuer's card id when the app named one).
    public let primaryAccountIdentifier: String
    public let deviceAccountIdentifier: String
    /// The funding card's last four digits, which the wallet shows.
    public let fundingLast4: String
    public let tokenLast4: String
    public let details: CardDetails
    /// The wallet's own id of the request this card answers (Google's push-tokenize call), so
    /// it can tie the install to what the app asked for; nil for Apple's adds.
    public let walletRequestID: String?
    /// The card product's profile, when the card has a product.
    public var profile: SandboxCardProfile? = nil
}
