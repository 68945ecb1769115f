import Foundation
import ProvisioCore

/// Card products (`/v1/card-products`): what the wallets show and honour for every card of one
/// kind. A change of what a pass shows or honours goes to the network for each live token of the
/// product's cards, as a reissue's details do; a token the network refuses is `failed` and the
/// same change again retries it.
public struct CardProductService: Sendable {
    let store: any CardProductStore
    let cards: CardService
    let tokens: TokenService
    let clock: any TimeSource
    /// Where wallets and networks reach this server (`PROVISIO_PUBLIC_URL`): art URLs start here.
    let publicURL: String

    /// Products per tenant at most.
    public static let limit = 100

    public init(
        store: any CardProductStore, cards: CardService, tokens: TokenService, clock: any TimeSource, publicURL: String
    ) {
        self.store = store
        self.cards = cards
        self.tokens = tokens
        self.clock = clock
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
    }

    public func create(_ settings: CardProductSettings, isDefault: Bool, tenantID: String) async throws
        -> CardProductRecord
    {
        var settings = settings
        try settings.validate()
        let now = clock.now()
        let product = CardProductRecord(
            id: RandomToken.identifier(prefix: "cprod_"), tenantID: tenantID, isDefault: isDefault, settings: settings,
            createdAt: now, updatedAt: now)
        guard try await store.insertCardProduct(product, limit: Self.limit) else {
            throw ProvisioError(
                .cardProductLimitReached, "The tenant holds \(Self.limit) card products, the most it may; change one instead.")
        }
        return product
    }

    public func products(tenantID: String) async throws -> [CardProductRecord] {
        try await store.cardProducts(tenantID: tenantID)
    }

    /// The product, or `card_product_not_found` (also another tenant's).
    public func product(id: String, tenantID: String) async throws -> CardProductRecord {
        guard id.count <= 64, let product = try await store.cardProduct(id: id, tenantID: tenantID) else {
            throw ProvisioError(.cardProductNotFound, "No card product with this id.")
        }
        return product
    }

    /// The product a card follows: its own, or the tenant's default; nil when neither.
    public func product(of card: CardRecord) async throws -> CardProductRecord? {
        try await store.product(followedBy: card)
    }

    /// Applies `change` to the product's settings and default flag, checks the result whole,
    /// stores it and sends the profile to the product's live tokens.
    public func update(
        id: String, tenantID: String, _ change: (inout CardProductSettings, inout Bool) throws -> Void
    ) async throws -> (CardProductRecord, [TokenCarryResult]) {
        var product = try await product(id: id, tenantID: tenantID)
        try change(&product.settings, &product.isDefault)
        try product.settings.validate()
        guard let stored = try await store.updateCardProduct(product, at: clock.now()) else {
            throw ProvisioError(.cardProductNotFound, "No card product with this id.")
        }
        return (stored, try await sendProfile(of: stored))
    }

    /// Stores checked art as the product's and sends the new art URL with the profile.
    public func setArt(_ art: CardArtFile, id: String, tenantID: String) async throws
        -> (CardProductRecord, [TokenCarryResult])
    {
        guard id.count <= 64,
            let stored = try await store.setCardProductArt(art, productID: id, tenantID: tenantID, at: clock.now())
        else { throw ProvisioError(.cardProductNotFound, "No card product with this id.") }
        return (stored, try await sendProfile(of: stored))
    }

    /// Art a product holds, by the name in its URL (`{sha256}.png` or `.pdf`); nil for anything else.
    public func art(fileName: String) async throws -> (Data, CardArtFile.Kind)? {
        let parts = fileName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 64, parts[0].allSatisfy({ $0.isHexDigit && !$0.isUppercase }),
            let kind = CardArtFile.Kind.allCases.first(where: { $0.fileExtension == parts[1] })
        else { return nil }
        return try await store.cardArt(sha256: String(parts[0]), kind: kind).map { ($0, kind) }
    }

    /// Where the art is served.
    public func url(of art: CardArtSummary) -> String { "\(publicURL)/v1/card-art/\(art.fileName)" }

    /// The product as the network and the wallet are told it.
    public func profile(of product: CardProductRecord) -> CardProfile {
        let settings = product.settings
        return CardProfile(
            productID: product.id, name: settings.name, appLaunchURL: settings.appLaunchURL,
            associatedApplicationIdentifiers: settings.associatedApplicationIdentifiers,
            associatedStoreIdentifiers: settings.associatedStoreIdentifiers, contactName: settings.contactName,
            supportPhone: settings.supportPhone, supportEmail: settings.supportEmail, supportURL: settings.supportURL,
            termsURL: settings.termsURL, termsVersion: settings.termsVersion, cardArtURL: product.art.map(url(of:)))
    }

    /// The profile to every live token of every card that follows the product (a card with its
    /// own art keeps it on the pass: the profile's art is the product's fallback).
    func sendProfile(of product: CardProductRecord) async throws -> [TokenCarryResult] {
        let profile = profile(of: product)
        var results: [TokenCarryResult] = []
        for cardID in try await store.cardIDs(followingProduct: product) {
            let card = try await cards.card(id: cardID, tenantID: product.tenantID)
            guard card.status != .closed else { continue }
            let change = CardDetails(cardArtURL: card.cardArtURL == nil ? profile.cardArtURL : nil, profile: profile)
            results += try await tokens.sendCardDetails(change, of: card)
        }
        return results
    }
}
