import Foundation
import ProvisioCore
import ProvisioCrypto

/// Issuer cards: validation, the PAN into the vault, and the card's lifecycle (closing is final).
public struct CardService: Sendable {
    /// A card to create, its PAN, expiry, name and network already Core's validated values.
    public struct NewCard: Sendable {
        public var customerRef: String
        public var accountRef: String?
        public var pan: PrimaryAccountNumber
        public var expiry: CardExpiry
        public var cardholderName: CardholderName
        /// nil: derived from the PAN's BIN.
        public var network: PaymentNetwork?
        public var cardArtURL: String?
        /// The optional free-text fields the request set (the product title, …).
        public var texts: [CardText]
        /// The cardholder's contacts for one-time codes, sealed at creation (`CardService+Contacts`).
        public var phone: CardholderPhone? = nil
        public var email: CardholderEmail? = nil
        /// The card's product (already checked to be the tenant's); nil follows the default.
        public var productID: String? = nil

        public init(
            customerRef: String, accountRef: String?, pan: PrimaryAccountNumber, expiry: CardExpiry,
            cardholderName: CardholderName, network: PaymentNetwork?, cardArtURL: String?, texts: [CardText] = []
        ) {
            self.customerRef = customerRef
            self.accountRef = accountRef
            self.pan = pan
            self.expiry = expiry
            self.cardholderName = cardholderName
            self.network = network
            self.cardArtURL = cardArtURL
            self.texts = texts
        }
    }

    let store: any ProvisioStore
    let vault: PANVault
    let fingerprinter: PANFingerprinter
    let clock: any TimeSource

    public init(store: any ProvisioStore, vault: PANVault, fingerprinter: PANFingerprinter, clock: any TimeSource) {
        self.store = store
        self.vault = vault
        self.fingerprinter = fingerprinter
        self.clock = clock
    }

    public func create(_ input: NewCard, tenantID: String) async throws -> CardRecord {
        try Self.validateCustomerRef(input.customerRef)
        if let accountRef = input.accountRef { try Self.validateReference(accountRef, field: "account_ref") }
        let pan = input.pan
        let expiry = input.expiry
        let now = clock.now()
        try expiry.requireValid(at: now)
        let name = input.cardholderName
        let network = input.network ?? PaymentNetwork(bin: pan.bin)
        let texts = try input.texts.map { ($0.keyPath, try $0.validated()) }
        let artURL = try input.cardArtURL.map(Self.validateArtURL)

        let id = RandomToken.identifier(prefix: "card_")
        let record = try vault.seal(pan, context: CardRecord.vaultContext(tenantID: tenantID, cardID: id))
        var card = CardRecord(
            id: id, tenantID: tenantID, customerRef: input.customerRef, accountRef: input.accountRef,
            panVaultRecord: record.serialized, last4: pan.last4, network: network, expiryMonth: expiry.month,
            expiryYear: expiry.year, cardholderName: name.value, cardArtURL: artURL,
            primaryAccountIdentifier: Self.primaryAccountIdentifier(network: network), status: .active,
            createdAt: now, updatedAt: now, panFingerprint: fingerprinter.fingerprint(pan), productID: input.productID)
        for (keyPath, value) in texts { card[keyPath: keyPath] = value }
        try sealContacts(phone: input.phone, email: input.email, into: &card)
        try await store.insertCard(card)
        return card
    }

    /// The card, or `card_not_found` — also for another tenant's card, so ids reveal nothing.
    public func card(id: String, tenantID: String) async throws -> CardRecord {
        guard let card = try await store.card(id: id, tenantID: tenantID) else {
            throw ProvisioError(.cardNotFound, "No card with this id.")
        }
        return card
    }

    public func cards(tenantID: String, customerRef: String, cursor: String?, limit: Int?) async throws -> Page<CardRecord> {
        try Self.validateCustomerRef(customerRef)
        return try await store.cards(
            tenantID: tenantID, customerRef: customerRef, cursor: cursor, limit: try PageSize.resolve(limit))
    }

    /// A reissue: the new expiry (same number), name, art or free texts (title, …); nil fields
    /// and texts not given stay.
    public struct CardUpdate: Sendable {
        public var expiry: CardExpiry?
        public var cardholderName: CardholderName?
        public var cardArtURL: String?
        public var texts: [CardText]
        /// A contact to replace or remove; nil leaves it as it is.
        public var phone: CardContactChange<CardholderPhone>? = nil
        public var email: CardContactChange<CardholderEmail>? = nil

        public init(
            expiry: CardExpiry? = nil, cardholderName: CardholderName? = nil, cardArtURL: String? = nil,
            texts: [CardText] = []
        ) {
            self.expiry = expiry
            self.cardholderName = cardholderName
            self.cardArtURL = cardArtURL
            self.texts = texts
        }
    }

    /// Applies a reissue to an active card; answers the card and what its tokens must learn.
    public func update(id: String, tenantID: String, _ update: CardUpdate) async throws -> (CardRecord, CardDetails) {
        var card = try await self.card(id: id, tenantID: tenantID)
        // A locked card is reissued like an active one: the lock is about its use, not its details.
        guard card.status != .closed else {
            throw ProvisioError(.cardClosed, "The card is closed; a closed card cannot be reissued.")
        }
        // What the network is sent is every detail the request names, changed or not: the same
        // PATCH again re-sends them to the tokens a first push did not reach. Only what changed is
        // written and audited.
        var fields: [String] = []
        var change = CardDetails()
        if let expiry = update.expiry {
            if expiry != (try? CardExpiry(month: card.expiryMonth, year: card.expiryYear)) {
                try expiry.requireValid(at: clock.now())
                (card.expiryMonth, card.expiryYear) = (expiry.month, expiry.year)
                fields.append("expiry")
            }
            change.expiry = expiry
        }
        if let name = update.cardholderName {
            if name.value != card.cardholderName {
                card.cardholderName = name.value
                fields.append("cardholder_name")
            }
            change.cardholderName = name.value
        }
        if let art = try update.cardArtURL.map(Self.validateArtURL) {
            if art != card.cardArtURL {
                card.cardArtURL = art
                fields.append("card_art_url")
            }
            change.cardArtURL = art
        }
        // Free texts are the record's; the product's title is also the pass's, so it goes to
        // the network like the rest.
        for text in update.texts {
            let value = try text.validated()
            if text.keyPath == \CardRecord.productTitle { change.productTitle = value }
            guard value != card[keyPath: text.keyPath] else { continue }
            card[keyPath: text.keyPath] = value
            fields.append(text.field)
        }
        // The contacts are the issuer's to know, never the network's: stored, not sent.
        fields += try applyContactChanges(phone: update.phone, email: update.email, to: &card)
        // Nothing new to store: the card as it is, and what the network is sent again.
        guard !fields.isEmpty else { return (card, change) }
        let now = clock.now()
        guard let stored = try await store.updateCardDetails(card, changedFields: fields, at: now) else {
            throw ProvisioError(.cardClosed, "The card is closed; a closed card cannot be reissued.")
        }
        return (stored, change)
    }

    public func close(id: String, tenantID: String) async throws -> CardRecord {
        try await change(id: id, tenantID: tenantID, .close)
    }

    /// Locks the card (again, if it already is): it is not provisioned until unlocked.
    /// `card_closed` for a closed card.
    public func lock(id: String, tenantID: String) async throws -> CardRecord {
        let card = try await change(id: id, tenantID: tenantID, .lock)
        guard card.status == .locked else { throw ProvisioError(.cardClosed, "The card is closed; it cannot be locked.") }
        return card
    }

    /// Unlocks the card (an active card stays as it is). `card_closed` for a closed card.
    public func unlock(id: String, tenantID: String) async throws -> CardRecord {
        let card = try await change(id: id, tenantID: tenantID, .unlock)
        guard card.status == .active else {
            throw ProvisioError(.cardClosed, "The card is closed; it cannot be unlocked.")
        }
        return card
    }

    private func change(id: String, tenantID: String, _ change: CardStatusChange) async throws -> CardRecord {
        guard let card = try await store.setCardStatus(id: id, tenantID: tenantID, status: change, at: clock.now()) else {
            throw ProvisioError(.cardNotFound, "No card with this id.")
        }
        return card
    }

    /// The PAN out of the vault, for building a wallet payload.
    public func primaryAccountNumber(of card: CardRecord) throws -> PrimaryAccountNumber {
        try vault.open(
            try VaultRecord(serialized: card.panVaultRecord),
            context: CardRecord.vaultContext(tenantID: card.tenantID, cardID: card.id))
    }

    /// Throws unless the card may be provisioned now (`card_closed`, `card_locked`, `card_expired`).
    public func requireEligible(_ card: CardRecord) throws {
        guard card.status != .locked else {
            throw ProvisioError(.cardLocked, "The card is locked and cannot be provisioned until it is unlocked.")
        }
        guard card.status.isEligibleForProvisioning else {
            throw ProvisioError(.cardClosed, "The card is closed and cannot be provisioned.")
        }
        try CardExpiry(month: card.expiryMonth, year: card.expiryYear).requireValid(at: clock.now())
    }

    public func isEligible(_ card: CardRecord) -> Bool { (try? requireEligible(card)) != nil }

    // MARK: Validation

    static func validateCustomerRef(_ value: String) throws {
        try validateReference(value, field: "customer_ref")
    }

    static func validateReference(_ value: String, field: String) throws {
        guard (1...128).contains(value.unicodeScalars.count),
            !value.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true })
        else {
            throw ProvisioError(.invalidParameter, "\(field) must be 1 to 128 characters without control characters.")
        }
        try refuseCardNumber(in: value, field: field)
    }

    /// Free text must not carry a card number (it would be stored and shown in clear).
    static func refuseCardNumber(in value: String, field: String) throws {
        if CardNumberPattern.containsCardNumber(value) {
            throw ProvisioError(.cardNumberInText, "\(field) holds what looks like a card number; it must not.")
        }
    }

    static func validateText(_ value: String, field: String, maximum: Int) throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...maximum).contains(trimmed.unicodeScalars.count) else {
            throw ProvisioError(.invalidParameter, "\(field) must be 1 to \(maximum) characters.")
        }
        try refuseCardNumber(in: trimmed, field: field)
        return trimmed
    }

    static func validateArtURL(_ value: String) throws -> String {
        try validateHTTPSURL(value, field: "card_art_url")
    }

    /// An https URL with a host, at most 2048 characters (art, support and terms pages).
    static func validateHTTPSURL(_ value: String, field: String) throws -> String {
        guard value.utf8.count <= 2048, let url = URL(string: value), url.scheme == "https", url.host?.isEmpty == false else {
            throw ProvisioError(.invalidParameter, "\(field) must be an https URL of at most 2048 characters.")
        }
        return value
    }

    static func network(named name: String) throws -> PaymentNetwork {
        guard let network = PaymentNetwork(rawValue: name.lowercased()), network != .unknown else {
            throw ProvisioError(
                .invalidParameter,
                "network must be one of \(PaymentNetwork.allCases.filter { $0 != .unknown }.map(\.rawValue).joined(separator: ", "))."
            )
        }
        return network
    }

    /// An opaque, stable identifier for the funding account, shaped like the ones wallets show
    /// (a network letter and digits); it never contains any part of the PAN.
    static func primaryAccountIdentifier(network: PaymentNetwork) -> String {
        let letter: String
        switch network {
        case .visa: letter = "V"
        case .mastercard, .maestro: letter = "M"
        case .amex: letter = "A"
        case .discover: letter = "D"
        case .jcb: letter = "J"
        case .unionPay: letter = "U"
        case .unknown: letter = "X"
        }
        var generator = SystemRandomNumberGenerator()
        return letter + "-" + String((0..<22).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }
}

/// `NewCard` carries a raw PAN; describing it shows only the last four digits.
extension CardService.NewCard: CustomStringConvertible, CustomReflectable {
    public var description: String { "NewCard(customer_ref: \(customerRef), pan: \(pan.masked))" }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
