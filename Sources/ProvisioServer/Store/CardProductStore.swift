import Foundation

/// Card products and their art. Every change appends its audit line in the same transaction.
public protocol CardProductStore: Sendable {
    /// Inserts the product unless the tenant already holds `limit`; a default product takes the
    /// flag from the tenant's previous one. False when the limit was reached.
    func insertCardProduct(_ product: CardProductRecord, limit: Int) async throws -> Bool
    func cardProduct(id: String, tenantID: String) async throws -> CardProductRecord?
    /// The tenant's default product, when one is marked.
    func defaultCardProduct(tenantID: String) async throws -> CardProductRecord?
    /// Oldest first.
    func cardProducts(tenantID: String) async throws -> [CardProductRecord]
    /// Writes the product's settings, default flag and art (taking the flag from another product
    /// when it becomes the default); nil when the tenant has no such product.
    func updateCardProduct(_ product: CardProductRecord, at time: Date) async throws -> CardProductRecord?
    /// Stores the art's bytes (once per digest) and points the product at them.
    func setCardProductArt(_ art: CardArtFile, productID: String, tenantID: String, at time: Date) async throws
        -> CardProductRecord?
    /// The bytes of art some product holds, by its file name (`{sha256}.{png|pdf}`).
    func cardArt(sha256: String, kind: CardArtFile.Kind) async throws -> Data?
    /// The ids of the tenant's cards that follow the product: those created with it and, for
    /// the default product, those created without one.
    func cardIDs(followingProduct product: CardProductRecord) async throws -> [String]
}

extension CardProductStore {
    /// The product a card follows: its own, or the tenant's default; nil when neither.
    public func product(followedBy card: CardRecord) async throws -> CardProductRecord? {
        if let id = card.productID { return try await cardProduct(id: id, tenantID: card.tenantID) }
        return try await defaultCardProduct(tenantID: card.tenantID)
    }
}
