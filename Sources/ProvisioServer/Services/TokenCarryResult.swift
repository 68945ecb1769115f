/// What happened to one of a card's live tokens when the card changed.
public struct TokenCarryResult: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        /// Deleted at the network and here (the card was closed).
        case deleted
        /// The network has the card's new details (the card was reissued).
        case updated
        /// Suspended at the network and here (the card was locked).
        case suspended
        /// Resumed at the network and here (the card was unlocked).
        case resumed
        /// The network could not be reached or refused; `errorCode` says which. Closing,
        /// reissuing, locking or unlocking again retries the tokens still to do.
        case failed
    }

    public var tokenID: String
    public var outcome: Outcome
    public var errorCode: String?
}
