import ProvisioAPI
import ProvisioCore

/// The issuer's cards: create, list, read, lock and unlock, close, and each card's provisioning
/// attempts. The
/// PAN becomes a `PrimaryAccountNumber` here and never comes back in an answer.
extension ProvisioAPIHandler {
    func createCard(_ input: Operations.CreateCard.Input) async throws -> Operations.CreateCard.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let tenantID = try Self.tenantID()
        // A retry after a crash answers with the card the first attempt created.
        let card: CardRecord
        if let previous = IdempotentEffect.previous("card") {
            card = try await services.cards.card(id: previous, tenantID: tenantID)
        } else {
            var newCard = try Self.newCard(body)
            if let productID = body.productId {
                newCard.productID = try await services.cardProducts.product(id: productID, tenantID: tenantID).id
            }
            card = try await services.cards.create(newCard, tenantID: tenantID)
        }
        return .created(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(card))))
    }

    func listCards(_ input: Operations.ListCards.Input) async throws -> Operations.ListCards.Output {
        let page = try await services.cards.cards(
            tenantID: try Self.tenantID(), customerRef: input.query.customerRef, cursor: input.query.cursor,
            limit: input.query.limit)
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(data: page.items.map { Components.Schemas.Card($0) }, nextCursor: page.nextCursor))))
    }

    func getCard(_ input: Operations.GetCard.Input) async throws -> Operations.GetCard.Output {
        let card = try await services.cards.card(id: try Self.cardID(input.path.id), tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(card))))
    }

    func closeCard(_ input: Operations.CloseCard.Input) async throws -> Operations.CloseCard.Output {
        let (card, carried) = try await services.cardChanges.close(
            id: try Self.cardID(input.path.id), tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(card, tokenUpdates: carried))))
    }

    func lockCard(_ input: Operations.LockCard.Input) async throws -> Operations.LockCard.Output {
        let (card, carried) = try await services.cardChanges.lock(
            id: try Self.cardID(input.path.id), tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(card, tokenUpdates: carried))))
    }

    func unlockCard(_ input: Operations.UnlockCard.Input) async throws -> Operations.UnlockCard.Output {
        let (card, carried) = try await services.cardChanges.unlock(
            id: try Self.cardID(input.path.id), tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(card, tokenUpdates: carried))))
    }

    func updateCard(_ input: Operations.UpdateCard.Input) async throws -> Operations.UpdateCard.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        var update = CardService.CardUpdate(
            expiry: try CardExpiry.optional(month: body.expiryMonth, year: body.expiryYear),
            cardholderName: try body.cardholderName.map(CardholderName.init), cardArtURL: body.cardArtUrl,
            texts: Self.cardTexts.compactMap { $0.text(from: body[keyPath: $0.update]) })
        // A contact: a new value replaces the card's, an empty string removes it.
        update.phone = try body.cardholderPhone.map { $0.isEmpty ? .remove : .replace(try CardholderPhone($0)) }
        update.email = try body.cardholderEmail.map { $0.isEmpty ? .remove : .replace(try CardholderEmail($0)) }
        let (card, carried) = try await services.cardChanges.reissue(
            id: try Self.cardID(input.path.id), tenantID: try Self.tenantID(), update)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(card, tokenUpdates: carried))))
    }

    func listProvisioningAttempts(_ input: Operations.ListProvisioningAttempts.Input) async throws
        -> Operations.ListProvisioningAttempts.Output
    {
        let page = try await services.provisioning.attempts(
            cardID: try Self.cardID(input.path.id), tenantID: try Self.tenantID(), cursor: input.query.cursor,
            limit: input.query.limit)
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(
                    .init(data: page.items.map(Components.Schemas.ProvisioningAttempt.init), nextCursor: page.nextCursor))))
    }

    /// The card's optional free-text fields. A new one is a line here (and its property in the
    /// document and `CardRecord`, and its column): requests, validation, storage and answers follow.
    static let cardTexts: [CardTextField] = [
        CardTextField(
            field: "product_title", maximum: 64, record: \.productTitle, create: \.productTitle, update: \.productTitle,
            card: \.productTitle, mobile: \Components.Schemas.MobileCard.productTitle)
    ]

    /// A card id from the path; one no card can have is `card_not_found` like any unknown id.
    static func cardID(_ id: String) throws -> String {
        guard !id.isEmpty, id.count <= 64 else { throw ProvisioError(.cardNotFound, "No card with this id.") }
        return id
    }

    /// The request's card data as Core's validated values: `invalid_pan`, `invalid_expiry`,
    /// `invalid_cardholder_name` and `invalid_parameter` (network) come from here.
    static func newCard(_ body: Components.Schemas.CreateCardRequest) throws -> CardService.NewCard {
        var card = CardService.NewCard(
            customerRef: body.customerRef, accountRef: body.accountRef, pan: try PrimaryAccountNumber(body.pan),
            expiry: try CardExpiry(month: body.expiryMonth, year: body.expiryYear),
            cardholderName: try CardholderName(body.cardholderName),
            network: try body.network.map(CardService.network(named:)), cardArtURL: body.cardArtUrl,
            texts: cardTexts.compactMap { $0.text(from: body[keyPath: $0.create]) })
        card.phone = try body.cardholderPhone.map(CardholderPhone.init)
        card.email = try body.cardholderEmail.map(CardholderEmail.init)
        return card
    }
}

extension Components.Schemas.Card {
    /// Everything about the card but the PAN; after a close or reissue, what its tokens got.
    init(_ card: CardRecord, tokenUpdates: [TokenCarryResult]? = nil) {
        self.init(
            id: card.id, customerRef: card.customerRef, accountRef: card.accountRef, last4: card.last4,
            network: .init(card.network), expiryMonth: card.expiryMonth, expiryYear: card.expiryYear,
            cardholderName: card.cardholderName, cardArtUrl: card.cardArtURL,
            primaryAccountIdentifier: card.primaryAccountIdentifier,
            status: {
                switch card.status {
                case .active: .active
                case .locked: .locked
                case .closed: .closed
                }
            }(), createdAt: card.createdAt, updatedAt: card.updatedAt,
            tokenUpdates: tokenUpdates?.map(Components.Schemas.TokenUpdate.init))
        productId = card.productID
        for text in ProvisioAPIHandler.cardTexts { self[keyPath: text.card] = card[keyPath: text.record] }
        // The contacts only masked: the clear ones stay sealed.
        (cardholderPhoneMasked, cardholderEmailMasked) = (card.cardholderPhoneMasked, card.cardholderEmailMasked)
    }
}

extension Components.Schemas.TokenUpdate {
    init(_ result: TokenCarryResult) {
        let outcome: OutcomePayload =
            switch result.outcome {
            case .deleted: .deleted
            case .updated: .updated
            case .suspended: .suspended
            case .resumed: .resumed
            case .failed: .failed
            }
        self.init(
            tokenId: result.tokenID, outcome: outcome,
            errorCode: result.errorCode.flatMap(Components.Schemas.ErrorCode.init(rawValue:)))
    }
}

extension Components.Schemas.MobileCard {
    /// Only what Wallet and the Add button need.
    init(_ card: CardRecord) {
        self.init(
            id: card.id, last4: card.last4, network: .init(card.network), cardholderName: card.cardholderName,
            cardArtUrl: card.cardArtURL, primaryAccountIdentifier: card.primaryAccountIdentifier)
        for text in ProvisioAPIHandler.cardTexts {
            if let mobile = text.mobile { self[keyPath: mobile] = card[keyPath: text.record] }
        }
        (cardholderPhoneMasked, cardholderEmailMasked) = (card.cardholderPhoneMasked, card.cardholderEmailMasked)
    }
}

extension Components.Schemas.ProvisioningAttempt {
    init(_ attempt: ProvisioningAttemptRecord) {
        self.init(
            id: attempt.id, cardId: attempt.cardID, wallet: .init(attempt.wallet),
            deviceType: attempt.deviceType.map { .init($0) },
            encryptionScheme: attempt.encryptionScheme.map { .init($0) },
            outcome: {
                switch attempt.outcome {
                case .succeeded: .succeeded
                case .failed: .failed
                }
            }(), errorCode: attempt.errorCode, createdAt: attempt.createdAt)
    }
}

/// The request carries a raw PAN: describing it (a log line, a test failure, the generated
/// code's `ServerError` description, which quotes the operation's input) shows only the last
/// four digits, as the hand-written `CreateCardBody` did.
extension Components.Schemas.CreateCardRequest: CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public var description: String { "CreateCardRequest(customer_ref: \(customerRef), pan: •••• \(pan.suffix(4)))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
