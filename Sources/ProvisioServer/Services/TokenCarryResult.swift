/// What happened to one of a card's live tokens when the card changed.
public struct TokenCarryResult: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        /// Deleted at the network and here (the card was closed).
        case deleted
        /// The network has the card's new details (the card was reissued).
        case updated
        /// The network could not be reached or refused; `errorCode` says which. Closing or
        /// reissuing again retries the tokens still live.
        case failed
    }

    public var tokenID: String
    public var outcome: Outcome
    public var errorCode: String?
}
