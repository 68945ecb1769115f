import Foundation
import ProvisioCore

/// A card's changes as the issuer makes them, carried to its wallet tokens: closing deletes
/// them at the network, locking suspends them and unlocking resumes them, a reissue sends the
/// new details. The API and the console both come
/// through here, so a change never stops at the card.
public struct CardChangeService: Sendable {
    let cards: CardService
    let tokens: TokenService
    /// Keeps a reissue a token's network did not take, to send again; nil: not kept.
    let outbox: TokenChangeOutbox?

    public init(cards: CardService, tokens: TokenService, outbox: TokenChangeOutbox? = nil) {
        self.cards = cards
        self.tokens = tokens
        self.outbox = outbox
    }

    /// Closes the card (again, if it already is) and deletes its tokens still live.
    public func close(id: String, tenantID: String) async throws -> (CardRecord, [TokenCarryResult]) {
        let card = try await cards.close(id: id, tenantID: tenantID)
        return (card, try await tokens.deleteTokens(ofClosed: card))
    }

    /// Locks the card and suspends its active tokens. Locking a locked card again retries the
    /// tokens a first lock could not suspend.
    public func lock(id: String, tenantID: String) async throws -> (CardRecord, [TokenCarryResult]) {
        let card = try await cards.lock(id: id, tenantID: tenantID)
        return (card, try await tokens.suspendTokens(ofLocked: card))
    }

    /// Unlocks the card and resumes the tokens its lock suspended; again, it retries those.
    public func unlock(id: String, tenantID: String) async throws -> (CardRecord, [TokenCarryResult]) {
        let card = try await cards.unlock(id: id, tenantID: tenantID)
        return (card, try await tokens.resumeTokens(ofUnlocked: card))
    }

    /// Reissues the card and sends what Wallet shows to each live token's network.
    public func reissue(id: String, tenantID: String, _ update: CardService.CardUpdate) async throws
        -> (CardRecord, [TokenCarryResult])
    {
        let (card, change) = try await cards.update(id: id, tenantID: tenantID, update)
        let results = try await tokens.sendCardDetails(change, of: card)
        try await outbox?.record(results, kind: .cardDetails, card: card)
        return (card, results)
    }
}
