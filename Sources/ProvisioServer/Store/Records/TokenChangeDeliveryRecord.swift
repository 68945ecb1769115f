import Foundation

/// A card's change that one of its wallet tokens has still to learn at the card network: the
/// push failed, so the retry worker (`TokenChangeRetryWorker`) sends it again, with backoff,
/// until the network takes it or the token is gone. It names the change, never carries it: a
/// retry reads the card as it then is (its number from the vault), so no PAN is ever held here.
/// Each property is the column of its name in snake_case (`RecordCoding`).
public struct TokenChangeDeliveryRecord: Sendable, Equatable, Codable {
    /// What the token has to learn.
    public enum Kind: String, Sendable, Codable {
        /// The card was replaced with a new number (`replaceFundingAccount`).
        case replacement
        /// The card was reissued: its expiry, name, art or title (`updateCardDetails`).
        case cardDetails = "card_details"
    }

    public enum State: String, Sendable, Codable {
        /// Due at `nextAttemptAt`.
        case pending
        /// The network took it.
        case delivered
        /// The network refused it (a 4xx other than a timeout or rate limit): not retried; the
        /// audit log has `token.card_change_refused` with the code.
        case refused
        /// The token is no longer live, or its card closed, before the network took it.
        case abandoned
    }

    public var id: String
    public var tenantID: String
    public var cardID: String
    public var tokenID: String
    public var kind: Kind
    public var state: State
    public var attemptCount: Int
    @EpochMilliseconds public var nextAttemptAt: Date
    /// The code of the last failure (`network_unavailable`, `network_refused`, …); never its words.
    public var lastErrorCode: String?
    @EpochMilliseconds public var createdAt: Date
    @EpochMilliseconds public var updatedAt: Date
}
