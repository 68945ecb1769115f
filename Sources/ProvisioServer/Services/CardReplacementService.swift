import Foundation
import ProvisioCore
import ProvisioCrypto

/// A card replaced with a new number (a lost or stolen card): the new PAN sealed in the vault in
/// place of the old one, under the same card id, status, tokens and primary account identifier,
/// and each live token told at the network that its funding account changed (the wallet keeps
/// the pass). A token the network did not take it for is left to `TokenChangeOutbox`.
public struct CardReplacementService: Sendable {
    let cards: CardService
    let tokens: TokenService
    let store: any TokenChangeStore
    let outbox: TokenChangeOutbox

    public init(cards: CardService, tokens: TokenService, store: any TokenChangeStore, outbox: TokenChangeOutbox) {
        self.cards = cards
        self.tokens = tokens
        self.store = store
        self.outbox = outbox
    }

    /// Replaces the card's number and expiry and tells its tokens. Refused: a closed card
    /// (`card_closed`), the number it has (`card_number_unchanged`), one of another network
    /// (`card_network_mismatch`), one another open card of the tenant has (`card_number_in_use`),
    /// an expiry already over (`card_expired`).
    public func replace(id: String, tenantID: String, pan: PrimaryAccountNumber, expiry: CardExpiry) async throws
        -> (CardRecord, [TokenCarryResult])
    {
        var card = try await cards.card(id: id, tenantID: tenantID)
        guard card.status != .closed else {
            throw ProvisioError(.cardClosed, "The card is closed; a closed card cannot be replaced.")
        }
        let fingerprint = cards.fingerprinter.fingerprint(pan)
        let current = card.panFingerprint ?? (try? cards.primaryAccountNumber(of: card)).map(cards.fingerprinter.fingerprint)
        if fingerprint == current {
            // The same request again after a first attempt stored the number: its tokens are
            // told again; anything else with the number the card has is a mistake.
            guard IdempotentEffect.previous("card_replacement") == card.id else {
                throw ProvisioError(.cardNumberUnchanged, "The card already has this number; a replacement takes a new one.")
            }
            return (card, try await tellTokens(of: card))
        }
        guard PaymentNetwork(bin: pan.bin) == card.network else {
            throw ProvisioError(
                .cardNetworkMismatch,
                "The new number is not a \(card.network.rawValue) card's; a card is replaced by one of its own network.")
        }
        try expiry.requireValid(at: cards.clock.now())
        if try await store.openCardID(panFingerprint: fingerprint, tenantID: tenantID, excluding: card.id) != nil {
            throw ProvisioError(.cardNumberInUse, "Another card of this tenant has this number.")
        }
        let sealed = try cards.vault.seal(pan, context: CardRecord.vaultContext(tenantID: tenantID, cardID: card.id))
        card.panVaultRecord = sealed.serialized
        card.last4 = pan.last4
        card.panFingerprint = fingerprint
        (card.expiryMonth, card.expiryYear) = (expiry.month, expiry.year)
        guard let stored = try await store.replaceCardNumber(card, at: cards.clock.now()) else {
            throw ProvisioError(.cardClosed, "The card is closed; a closed card cannot be replaced.")
        }
        return (stored, try await tellTokens(of: stored))
    }

    /// Tells each live token's network of the new number, each on its own; what one did not
    /// take is kept to retry (or recorded as refused).
    private func tellTokens(of card: CardRecord) async throws -> [TokenCarryResult] {
        var results: [TokenCarryResult] = []
        for token in try await tokens.liveTokens(cardID: card.id, tenantID: card.tenantID) {
            do {
                try await outbox.send(.replacement, card: card, token: token)
                results.append(TokenCarryResult(tokenID: token.id, outcome: .updated))
            } catch let error as ProvisioError {
                results.append(TokenCarryResult(tokenID: token.id, outcome: .failed, errorCode: error.code.rawValue))
            }
        }
        try await outbox.record(results, kind: .replacement, card: card)
        return results
    }
}
