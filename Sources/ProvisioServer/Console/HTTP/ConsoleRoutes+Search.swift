import Foundation
import HTTPTypes
import Hummingbird
import ProvisioCore

/// Finding cards and tokens, and their pages.
extension ConsoleRoutes {
    func searchPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let signedIn = try Self.signedIn(context)
        let query = try Self.query(request)
        var values = Self.base("Find a card or a token", signedIn)
        let path = request.uri.path
        let cardSearch = CardSearch(cardID: query["card_id"], customerRef: query["customer_ref"], last4: query["last4"])
        let tokenSearch = TokenSearch(
            last4: query["last4"], customerRef: query["customer_ref"], deviceAccountIdentifier: query["device_account_id"],
            networkTokenRef: query["network_token_ref"], state: try query["state"].map(Self.tokenState))
        if let last4 = query["last4"], !(last4.count == 4 && last4.allSatisfy(\.isASCII) && last4.allSatisfy(\.isNumber)) {
            throw ProvisioError(.invalidParameter, "Last 4 digits are exactly four digits.")
        }
        if path.hasSuffix("/cards"), !cardSearch.isEmpty {
            let cards = try await services.search.cards(tenantID: signedIn.tenantID, cardSearch)
            values["searched"] = true
            values["hasCards"] = !cards.isEmpty
            values["cards"] = cards.map(ConsoleViews.card)
        }
        if path.hasSuffix("/tokens"), !tokenSearch.isEmpty {
            let tokens = try await services.search.tokens(tenantID: signedIn.tenantID, tokenSearch)
            values["searched"] = true
            values["hasTokens"] = !tokens.isEmpty
            values["tokens"] = tokens.map { ConsoleViews.token($0) }
        }
        values["cardQuery"] = [
            "customerRef": cardSearch.customerRef ?? "", "last4": cardSearch.last4 ?? "", "cardID": cardSearch.cardID ?? "",
        ]
        values["tokenQuery"] = [
            "last4": tokenSearch.last4 ?? "", "customerRef": tokenSearch.customerRef ?? "",
            "deviceAccountID": tokenSearch.deviceAccountIdentifier ?? "", "networkTokenRef": tokenSearch.networkTokenRef ?? "",
        ]
        values["states"] = TokenState.allCases.map { ["value": $0.rawValue, "selected": $0 == tokenSearch.state] }
        return pages.page("search", values)
    }

    func cardPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let signedIn = try Self.signedIn(context)
        let card = try await services.cards.card(id: try Self.pathID(context), tenantID: signedIn.tenantID)
        let tokens = try await services.tokens.tokens(cardID: card.id, tenantID: signedIn.tenantID, cursor: nil, limit: 100)
        let attempts = try await services.provisioning.attempts(
            cardID: card.id, tenantID: signedIn.tenantID, cursor: nil, limit: 100)
        var values = Self.base("Card \(card.id)", signedIn)
        values["card"] = ConsoleViews.card(card)
        values["hasTokens"] = !tokens.items.isEmpty
        values["tokens"] = tokens.items.map { ConsoleViews.token($0, card: card) }
        values["hasAttempts"] = !attempts.items.isEmpty
        values["attempts"] = attempts.items.map(ConsoleViews.attempt)
        return pages.page("card", values)
    }

    static func tokenState(_ text: String) throws -> TokenState {
        guard let state = TokenState(rawValue: text) else {
            throw ProvisioError(
                .invalidParameter, "state must be one of \(TokenState.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return state
    }
}
