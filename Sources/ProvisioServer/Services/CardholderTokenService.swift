import Foundation
import ProvisioCore

/// The cardholder's own controls over their wallet tokens, from the issuer's app: see them on
/// every wallet and device, suspend, resume or delete one (a lost phone), and activate a
/// pending one the app authenticated them for. Only ever the customer's own tokens: another
/// customer's is `token_not_found`, exactly as an unknown one.
public struct CardholderTokenService: Sendable {
    let cards: CardService
    let tokens: TokenService

    public init(cards: CardService, tokens: TokenService) {
        self.cards = cards
        self.tokens = tokens
    }

    /// A token of one of the customer's cards, with its card.
    public struct OwnedToken: Sendable {
        public var token: TokenRecord
        public var card: CardRecord
    }

    /// The customer's live tokens (pending, active, suspended), oldest first, with their cards.
    public func tokens(tenantID: String, customerRef: String) async throws -> [OwnedToken] {
        // The reference is checked as any lookup's is (a card number in it is refused).
        try CardService.validateCustomerRef(customerRef)
        var owned: [OwnedToken] = []
        var cardsByID: [String: CardRecord] = [:]
        for token in try await tokens.liveTokens(matching: TokenSearch(customerRef: customerRef), tenantID: tenantID) {
            let card: CardRecord
            if let known = cardsByID[token.cardID] {
                card = known
            } else {
                card = try await cards.card(id: token.cardID, tenantID: tenantID)
                cardsByID[card.id] = card
            }
            owned.append(OwnedToken(token: token, card: card))
        }
        return owned
    }

    /// What the cardholder may do to a token of theirs.
    public enum Action: Sendable {
        case suspend, resume, delete
    }

    /// Makes the cardholder's change at the network, then here (reason `customer_request`).
    public func change(_ action: Action, tokenID: String, tenantID: String, customerRef: String) async throws -> OwnedToken {
        let owned = try await token(id: tokenID, tenantID: tenantID, customerRef: customerRef)
        let event: TokenEvent =
            switch action {
            case .suspend: .suspend(by: .issuer)
            case .resume: .resume(by: .issuer)
            case .delete: .delete(by: .issuer)
            }
        let changed = try await tokens.issuerChange(event, to: owned.token, reasonCode: Self.reason)
        return OwnedToken(token: changed, card: owned.card)
    }

    /// Activates a pending token the issuer's app authenticated the cardholder for.
    public func activateByApp(tokenID: String, tenantID: String, customerRef: String) async throws -> OwnedToken {
        let owned = try await token(id: tokenID, tenantID: tenantID, customerRef: customerRef)
        let activated = try await tokens.issuerChange(
            .verified(.appAuthentication), to: owned.token, reasonCode: "app_authentication")
        return OwnedToken(token: activated, card: owned.card)
    }

    /// The token if it is one of the customer's; `token_not_found` otherwise.
    func token(id: String, tenantID: String, customerRef: String) async throws -> OwnedToken {
        let token = try await tokens.token(id: id, tenantID: tenantID)
        let card = try await cards.card(id: token.cardID, tenantID: tenantID)
        guard card.customerRef == customerRef else { throw ProvisioError(.tokenNotFound, "No token with this id.") }
        return OwnedToken(token: token, card: card)
    }

    /// The reason the cardholder's own changes carry (MDES: `D` for a deletion).
    static let reason = "customer_request"
}
