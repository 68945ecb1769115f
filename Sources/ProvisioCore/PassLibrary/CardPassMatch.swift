/// Which passes on one device belong to a card, and how sure the match is.
public enum CardPassMatch: Hashable, Sendable {
    /// No pass on the device can be this card's.
    case notFound
    /// Passes carrying the card's primary account identifier: certain.
    case byPrimaryAccountIdentifier([WalletPassSnapshot])
    /// Passes without a primary account identifier whose last four digits belong to this card
    /// and to no other card of the issuer: attributed to the card.
    case byLastFour([WalletPassSnapshot])
    /// Passes without a primary account identifier whose last four digits are shared by several
    /// of the issuer's cards: they may be this card's or another's, so they are not attributed.
    case ambiguousLastFour([WalletPassSnapshot])

    /// The passes found, attributed or not.
    public var passes: [WalletPassSnapshot] {
        switch self {
        case .notFound: []
        case .byPrimaryAccountIdentifier(let passes), .byLastFour(let passes), .ambiguousLastFour(let passes): passes
        }
    }

    /// The passes that are certainly (or, by a unique last 4, attributably) the card's.
    public var attributedPasses: [WalletPassSnapshot] {
        switch self {
        case .byPrimaryAccountIdentifier(let passes), .byLastFour(let passes): passes
        case .notFound, .ambiguousLastFour: []
        }
    }
}
