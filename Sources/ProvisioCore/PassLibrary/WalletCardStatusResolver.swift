/// Answers "what is this card's state in Wallet" for the iPhone and for the paired Watch.
/// See `WalletCardStatus` for when each answer applies.
public struct WalletCardStatusResolver: Sendable {
    /// The matcher (guarded last-4 fallback) the statuses come from.
    public let matcher: CardPassMatcher
    private let cardsByPrimaryAccountIdentifier: [String: CardIdentity]

    /// `issuerCards` are all the cardholder's cards the app knows; they guard the last-4 fallback.
    public init(library: PassLibrarySnapshot, issuerCards: [CardIdentity]) {
        self.matcher = CardPassMatcher(library: library, issuerCards: issuerCards)
        self.cardsByPrimaryAccountIdentifier = Dictionary(
            issuerCards.map { ($0.primaryAccountIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The card's status on `device` (primary account identifier, then guarded last 4).
    public func status(of card: CardIdentity, on device: WalletDevice) -> WalletCardStatus {
        status(of: matcher.match(card, on: device), on: device)
    }

    /// The status of the card with this primary account identifier; the last-4 fallback applies
    /// only when the card is one of the issuer's cards given at init (its last 4 is known then).
    public func status(primaryAccountIdentifier: String, on device: WalletDevice) -> WalletCardStatus {
        if let card = cardsByPrimaryAccountIdentifier[primaryAccountIdentifier] {
            return status(of: card, on: device)
        }
        return status(
            ofAttributed: matcher.library.passes(primaryAccountIdentifier: primaryAccountIdentifier, on: device), on: device)
    }

    /// The status of the token with this device account identifier on `device`.
    public func status(deviceAccountIdentifier: String, on device: WalletDevice) -> WalletCardStatus {
        status(ofAttributed: matcher.library.passes(deviceAccountIdentifier: deviceAccountIdentifier, on: device), on: device)
    }

    /// The status a match gives on `device`.
    public func status(of match: CardPassMatch, on device: WalletDevice) -> WalletCardStatus {
        switch match {
        case .ambiguousLastFour: .unknown
        case .notFound, .byPrimaryAccountIdentifier, .byLastFour: status(ofAttributed: match.attributedPasses, on: device)
        }
    }

    /// Passes known to be the card's: their combined state, or — none — whether it could be added.
    private func status(ofAttributed passes: [WalletPassSnapshot], on device: WalletDevice) -> WalletCardStatus {
        WalletCardStatus(combining: passes) ?? (matcher.library.canAddPasses(to: device) ? .notAdded : .unavailable)
    }
}
