/// Finds a card's passes in the pass library: by primary account identifier first, then — only
/// for passes that carry none — by last four digits, guarded against suffixes the issuer's cards
/// share.
///
/// The guard: a pass without a primary account identifier is attributed to a card by its last 4
/// only when exactly one of the issuer's cards (those given at init, plus the card asked about)
/// ends in those digits. When two or more do, the pass is `ambiguousLastFour` for each of them
/// and hides none of them: no card's Add button or pass entry disappears because of a pass that
/// may be its sibling's. Give the matcher every card the app knows for the cardholder (closed
/// ones too), or the guard cannot see the siblings.
public struct CardPassMatcher: Sendable {
    /// The library the passes are looked up in.
    public let library: PassLibrarySnapshot
    /// Last four digits → the distinct primary account identifiers of the cards ending in them.
    private let cardsByLastFour: [String: Set<String>]

    /// Indexes the issuer's cards once (O(cards)); each `match` is then O(1) plus the passes found.
    public init(library: PassLibrarySnapshot, issuerCards: [CardIdentity]) {
        self.library = library
        var cardsByLastFour: [String: Set<String>] = [:]
        for card in issuerCards {
            guard let key = CardIdentity.lastFourKey(card.last4) else { continue }
            cardsByLastFour[key, default: []].insert(card.primaryAccountIdentifier)
        }
        self.cardsByLastFour = cardsByLastFour
    }

    /// The card's passes on `device`.
    public func match(_ card: CardIdentity, on device: WalletDevice) -> CardPassMatch {
        let exact = library.passes(primaryAccountIdentifier: card.primaryAccountIdentifier, on: device)
        if !exact.isEmpty { return .byPrimaryAccountIdentifier(exact) }
        guard let key = CardIdentity.lastFourKey(card.last4) else { return .notFound }
        let anonymous = library.passesWithoutPrimaryAccountIdentifier(last4: key, on: device)
        if anonymous.isEmpty { return .notFound }
        return isLastFourShared(key, by: card) ? .ambiguousLastFour(anonymous) : .byLastFour(anonymous)
    }

    /// Whether another of the issuer's cards ends in the same four digits as `card`.
    public func sharesLastFour(_ card: CardIdentity) -> Bool {
        guard let key = CardIdentity.lastFourKey(card.last4) else { return false }
        return isLastFourShared(key, by: card)
    }

    private func isLastFourShared(_ key: String, by card: CardIdentity) -> Bool {
        let owners = cardsByLastFour[key] ?? []
        return owners.contains { $0 != card.primaryAccountIdentifier }
    }
}
