/// What a wallet shows of a card besides its last four digits: the expiry, the cardholder's
/// name and the art. As a change (a reissue), nil fields stay as they are; on a pass, nil is
/// what was never set.
public struct CardDetails: Sendable, Hashable {
    public var expiry: CardExpiry?
    public var cardholderName: String?
    public var cardArtURL: String?

    public init(expiry: CardExpiry? = nil, cardholderName: String? = nil, cardArtURL: String? = nil) {
        self.expiry = expiry
        self.cardholderName = cardholderName
        self.cardArtURL = cardArtURL
    }

    public var isEmpty: Bool { expiry == nil && cardholderName == nil && cardArtURL == nil }

    /// These details with `change`'s fields laid over them.
    public func applying(_ change: CardDetails) -> CardDetails {
        CardDetails(
            expiry: change.expiry ?? expiry, cardholderName: change.cardholderName ?? cardholderName,
            cardArtURL: change.cardArtURL ?? cardArtURL)
    }
}
