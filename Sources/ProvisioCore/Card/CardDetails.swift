/// What a wallet shows of a card besides its last four digits: the expiry, the cardholder's
/// name, the art and the product's title. As a change (a reissue), nil fields stay as they are; on a pass, nil is
/// what was never set.
public struct CardDetails: Sendable, Hashable {
    public var expiry: CardExpiry?
    public var cardholderName: String?
    public var cardArtURL: String?
    /// The card product's name, as the pass shows it ("Demo Visa Everyday").
    public var productTitle: String?
    /// The card product's whole profile (a product's change); nil leaves the pass's as it is.
    public var profile: CardProfile?

    public init(
        expiry: CardExpiry? = nil, cardholderName: String? = nil, cardArtURL: String? = nil, productTitle: String? = nil,
        profile: CardProfile? = nil
    ) {
        self.expiry = expiry
        self.cardholderName = cardholderName
        self.cardArtURL = cardArtURL
        self.productTitle = productTitle
        self.profile = profile
    }

    public var isEmpty: Bool {
        expiry == nil && cardholderName == nil && cardArtURL == nil && productTitle == nil && profile == nil
    }

    /// These details with `change`'s fields laid over them.
    public func applying(_ change: CardDetails) -> CardDetails {
        CardDetails(
            expiry: change.expiry ?? expiry, cardholderName: change.cardholderName ?? cardholderName,
            cardArtURL: change.cardArtURL ?? cardArtURL, productTitle: change.productTitle ?? productTitle,
            profile: change.profile ?? profile)
    }
}
