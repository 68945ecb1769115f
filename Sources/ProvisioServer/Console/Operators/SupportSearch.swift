import Foundation
import ProvisioCore

/// What support looks cards and tokens up by, within one tenant; at most 50 answers, newest
/// first. Every value is checked before it reaches the database.
public struct SupportSearch: Sendable {
    let store: any OperatorStore & TokenStore

    public init(store: any OperatorStore & TokenStore) {
        self.store = store
    }

    public func cards(tenantID: String, _ search: CardSearch) async throws -> [CardRecord] {
        try Self.validate([search.cardID, search.customerRef, search.last4])
        return try await store.searchCards(tenantID: tenantID, search)
    }

    public func tokens(tenantID: String, _ search: TokenSearch) async throws -> [TokenRecord] {
        try Self.validate([search.last4, search.customerRef, search.deviceAccountIdentifier, search.networkTokenRef])
        return try await store.tokens(
            matching: search, tenantID: tenantID, cursor: nil, limit: SQLProvisioStore.searchLimit, newestFirst: true
        ).items
    }

    static func validate(_ values: [String?]) throws {
        for case let value? in values where !(1...128).contains(value.count) {
            throw ProvisioError(.invalidParameter, "A search value is 1 to 128 characters.")
        }
    }
}
