import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioNetworkConnector

/// Tokens from the issuer's side: the network asks for a decision on a new token, the issuer
/// and the network change its state, and every change is recorded and published as a webhook.
/// The state machine itself is `TokenLifecycle` (pure); this type stores and announces.
public struct TokenService: Sendable {
    /// What the card network sends when a wallet asks for a token.
    public struct TokenRequest: Sendable {
        public var pan: PrimaryAccountNumber
        public var expiry: CardExpiry
        public var wallet: Wallet
        public var deviceType: DeviceType?
        public var networkTokenRef: String
        public var tokenLast4: String?
        public var deviceAccountIdentifier: String?
        public var risk: RiskAssessment
    }

    let store: any TokenStore
    let cards: CardService
    let fingerprinter: PANFingerprinter
    let tavSigner: TAVSigner
    let publisher: WebhookPublisher
    let settings: SettingsService
    let decisionHook: IssuerDecisionHook
    let connectors: NetworkConnectorResolver
    let clock: any TimeSource
    /// Card products: a yellow token's offers follow its card's product.
    let products: (any CardProductStore)?

    public init(
        store: any TokenStore, cards: CardService, fingerprinter: PANFingerprinter, tavSigner: TAVSigner,
        publisher: WebhookPublisher, settings: SettingsService, decisionHook: IssuerDecisionHook,
        connectors: NetworkConnectorResolver, clock: any TimeSource, products: (any CardProductStore)? = nil
    ) {
        self.products = products
        self.store = store
        self.cards = cards
        self.fingerprinter = fingerprinter
        self.tavSigner = tavSigner
        self.publisher = publisher
        self.settings = settings
        self.decisionHook = decisionHook
        self.connectors = connectors
        self.clock = clock
    }

    /// Decides on a new token and records it. The same `networkTokenRef` again returns the
    /// token already decided (networks retry). A card that is closed or expired is declined
    /// with that reason; a PAN the tenant does not hold is `card_not_found`. The tenant's rules
    /// propose; a red proposal is final, otherwise the issuer decision webhook (when an
    /// endpoint subscribes to it) has the last word, or its default when it does not answer.
    public func decide(_ request: TokenRequest, tenantID: String) async throws -> (TokenRecord, Decision) {
        try Self.validateReference(request.networkTokenRef)
        if let identifier = request.deviceAccountIdentifier {
            try Self.validateReference(identifier, field: "device_account_identifier")
        }
        if let last4 = request.tokenLast4, !(last4.utf8.count == 4 && last4.utf8.allSatisfy({ (0x30...0x39).contains($0) })) {
            throw ProvisioError(.invalidParameter, "token_last4 must be exactly four digits.")
        }
        try request.risk.validate()
        if let existing = try await store.token(networkTokenRef: request.networkTokenRef, tenantID: tenantID) {
            return (existing, Decision(outcome: existing.decision, reasons: existing.decisionReasons))
        }
        guard let card = try await store.card(panFingerprint: fingerprinter.fingerprint(request.pan), tenantID: tenantID) else {
            throw ProvisioError(.cardNotFound, "The issuer holds no card with this number.")
        }
        var decision: Decision
        do {
            try cards.requireEligible(card)
            let decisioning = try await settings.decisioning(tenantID: tenantID)
            decision = try decisioning.rules.decide(request.risk)
            if decision.outcome != .decline,
                let issuers = try await decisionHook.decide(
                    request: request, card: card, proposed: decision, settings: decisioning, tenantID: tenantID)
            {
                decision = issuers
            }
        } catch let error as ProvisioError where [.cardClosed, .cardLocked, .cardExpired].contains(error.code) {
            // An ineligible card is a red decision with that reason, not an error to the network.
            decision = Decision(outcome: .decline, reasons: [error.code.rawValue])
        }
        // The webhook took time: a retry of the same request may have decided meanwhile.
        if let existing = try await store.token(networkTokenRef: request.networkTokenRef, tenantID: tenantID) {
            return (existing, Decision(outcome: existing.decision, reasons: existing.decisionReasons))
        }
        let transition = try TokenLifecycle.apply(.decided(decision.outcome), to: .requested)
        let now = clock.now()
        let token = TokenRecord(
            id: RandomToken.identifier(prefix: "tok_"), tenantID: tenantID, cardID: card.id, wallet: request.wallet,
            deviceType: request.deviceType, networkTokenRef: request.networkTokenRef,
            deviceAccountIdentifier: request.deviceAccountIdentifier, tokenLast4: request.tokenLast4, state: transition.to,
            networkState: nil, decision: decision.outcome, decisionReasons: decision.reasons, createdAt: now, updatedAt: now)
        let created = event(token, type: "token.created", from: nil, to: .requested, actor: .network, reason: nil, at: now)
        let decided = event(
            token, type: transition.webhookEvent, from: .requested, to: transition.to, actor: .issuer,
            reason: decision.reasons.joined(separator: ","), at: now)
        try await store.insertToken(
            token, events: [created, decided],
            outbox: [try await announcement(created, token: token), try await announcement(decided, token: token)])
        return (token, decision)
    }

    public func token(id: String, tenantID: String) async throws -> TokenRecord {
        guard let token = try await store.token(id: id, tenantID: tenantID) else {
            throw ProvisioError(.tokenNotFound, "No token with this id.")
        }
        return token
    }

    public func tokens(cardID: String, tenantID: String, cursor: String?, limit: Int?) async throws -> Page<TokenRecord> {
        try await tokens(matching: TokenSearch(cardID: cardID), tenantID: tenantID, cursor: cursor, limit: limit)
    }

    /// The tokens the issuer's backend looks up: by card, customer, device account identifier
    /// (what Wallet's pass carries) or network token reference, at least one of them; oldest
    /// first. An unknown card is `card_not_found`; any other filter that matches nothing is an
    /// empty page.
    public func tokens(matching search: TokenSearch, tenantID: String, cursor: String?, limit: Int?) async throws
        -> Page<TokenRecord>
    {
        guard
            search.cardID != nil || search.customerRef != nil || search.deviceAccountIdentifier != nil
                || search.networkTokenRef != nil
        else {
            throw ProvisioError(
                .invalidParameter,
                "Give at least one of card_id, customer_ref, device_account_identifier and network_token_ref.")
        }
        try FilterLength.check([
            ("card_id", search.cardID, 64), ("device_account_identifier", search.deviceAccountIdentifier, 128),
            ("network_token_ref", search.networkTokenRef, 128),
        ])
        // As for the customer's cards: a reference holding a card number is refused, never looked up.
        if let customerRef = search.customerRef { try CardService.validateCustomerRef(customerRef) }
        if let cardID = search.cardID { _ = try await cards.card(id: cardID, tenantID: tenantID) }
        return try await store.tokens(
            matching: search, tenantID: tenantID, cursor: cursor, limit: try PageSize.resolve(limit), newestFirst: false)
    }

    public func events(of token: TokenRecord) async throws -> [TokenEventRecord] {
        try await store.tokenEvents(tokenID: token.id)
    }

    /// Applies a lifecycle event; refuses impossible ones with 409 `token_invalid_transition`.
    public func apply(_ tokenEvent: TokenEvent, to token: TokenRecord, reasonCode: String?, networkState: String? = nil)
        async throws -> TokenRecord
    {
        // A retry after a crash: the first attempt already made this change.
        if IdempotentEffect.previous("token") == token.id { return token }
        if let reasonCode { try Self.validateReasonCode(reasonCode) }
        let transition = try TokenLifecycle.apply(tokenEvent, to: token.state)
        var updated = token
        updated.state = transition.to
        updated.updatedAt = clock.now()
        if let networkState { updated.networkState = networkState }
        let record = event(
            token, type: transition.webhookEvent, from: transition.from, to: transition.to, actor: Self.actor(of: tokenEvent),
            reason: reasonCode, at: updated.updatedAt)
        let outbox = try await announcement(record, token: updated)
        guard let stored = try await store.updateToken(updated, expectedState: token.state, event: record, outbox: [outbox])
        else {
            throw ProvisioError(.tokenInvalidTransition, "The token changed at the same time; read it again and retry.")
        }
        return stored
    }

    /// The issuer suspends, resumes or deletes a token: refused here first when impossible,
    /// then made at the network, then recorded with the network's new state. Nothing is
    /// recorded when the network is down or refuses.
    public func issuerChange(_ tokenEvent: TokenEvent, to token: TokenRecord, reasonCode: String?) async throws -> TokenRecord {
        let command: NetworkCommand
        switch tokenEvent {
        case .suspend: command = .suspend
        case .resume: command = .resume
        case .delete: command = .delete
        case .verified(let method): command = .activate(method: method.rawValue)
        case .decided: throw ProvisioError(.tokenInvalidTransition, "A decision is the network's to ask for.")
        }
        if let reasonCode { try Self.validateReasonCode(reasonCode) }
        if IdempotentEffect.previous("token") == token.id { return token }
        _ = try TokenLifecycle.apply(tokenEvent, to: token.state)
        switch tokenEvent {
        case .resume, .verified:
            // A locked card's tokens stay unusable until the card is unlocked, whoever asks.
            try Self.requireUnlocked(try await cards.card(id: token.cardID, tenantID: token.tenantID))
        default: break
        }
        let answer = try await connectors.connector(tenantID: token.tenantID).send(
            command, networkTokenRef: token.networkTokenRef, reasonCode: reasonCode)
        return try await apply(tokenEvent, to: token, reasonCode: reasonCode, networkState: answer.state)
    }

    /// `relayOTP` without the Provisio dialect's code format: the caller holds the code to its
    /// own network's rule (MDES's `activationCode` is any 1 to 32 characters).
    /// With `holdToOffers`, the chosen channel must be one offered for the token, and the webhook
    /// names its masked contact.
    func relayCode(
        networkTokenRef: String, tenantID: String, code: String, expiresAt: Date?, relay: OTPRelay,
        details: OTPRequestDetails? = nil, holdToOffers: Bool = false
    ) async throws -> [OTPRelay.Channel] {
        guard let token = try await store.token(networkTokenRef: networkTokenRef, tenantID: tenantID) else {
            throw ProvisioError(.tokenNotFound, "No token with this network reference.")
        }
        guard token.state == .pendingVerification else {
            throw ProvisioError(.tokenInvalidTransition, "Only a token pending verification takes a one-time code.")
        }
        let card = try await cards.card(id: token.cardID, tenantID: tenantID)
        var details = details ?? OTPRequestDetails(challengeID: RandomToken.identifier(prefix: "chl_"))
        if holdToOffers {
            details.destinationMasked = try await offer(for: details, token: token, card: card).contact
        } else if details.destinationMasked == nil {
            details.destinationMasked = details.channel == .email ? card.cardholderEmailMasked : card.cardholderPhoneMasked
        }
        return try await relay.relay(
            token: token, card: card, code: code, expiresAt: expiresAt ?? clock.now().addingTimeInterval(300),
            details: details)
    }

    /// Activation data (a TAV) for in-app verification of a pending token.
    public func activationData(for token: TokenRecord, lifetime: TimeInterval = 30 * 60) async throws -> (String, Date) {
        guard token.state == .pendingVerification else {
            throw ProvisioError(.tokenInvalidTransition, "Only a token pending verification needs activation data.")
        }
        let card = try await cards.card(id: token.cardID, tenantID: token.tenantID)
        try Self.requireUnlocked(card)
        let validUntil = clock.now().addingTimeInterval(lifetime)
        let data = try tavSigner.sign(
            pan: try cards.primaryAccountNumber(of: card), expiry: try CardExpiry(month: card.expiryMonth, year: card.expiryYear),
            validUntil: validUntil)
        return (data, validUntil)
    }

    // MARK: Helpers

    /// `card_locked` for a locked card: its tokens are neither resumed nor activated.
    static func requireUnlocked(_ card: CardRecord) throws {
        guard card.status != .locked else {
            throw ProvisioError(.cardLocked, "The card is locked; unlock it before resuming or activating its tokens.")
        }
    }

    private func event(
        _ token: TokenRecord, type: String, from: TokenState?, to: TokenState, actor: TokenActor, reason: String?, at time: Date
    ) -> TokenEventRecord {
        TokenEventRecord(
            id: RandomToken.identifier(prefix: "tev_"), tokenID: token.id, tenantID: token.tenantID, type: type, fromState: from,
            toState: to, actor: actor, reasonCode: reason.flatMap { $0.isEmpty ? nil : $0 }, createdAt: time)
    }

    /// The webhook announcing `event`, to be stored with it.
    private func announcement(_ event: TokenEventRecord, token: TokenRecord) async throws -> OutboxEntry {
        // The token after the change, plus why and by whom it changed.
        try await publisher.prepare(
            tenantID: token.tenantID,
            message: .tokenChanged(token, type: event.type, reasonCode: event.reasonCode, actor: event.actor))
    }

    static func actor(of event: TokenEvent) -> TokenActor {
        switch event {
        // Customer service or the issuer's app verified the cardholder at the issuer; every
        // other verification (TAV in-app, one-time code) the network saw.
        case .verified(.customerService), .verified(.appAuthentication): .issuer
        case .decided, .verified: .network
        case .suspend(let actor), .resume(let actor), .delete(let actor): actor
        }
    }

    /// A reason code is stored on the token's history and in the audit log: visible ASCII, and
    /// never a card number.
    static func validateReasonCode(_ value: String) throws {
        try validateReference(value, field: "reason_code")
        try CardService.refuseCardNumber(in: value, field: "reason_code")
    }

    static func validateReference(_ value: String, field: String = "network_token_ref") throws {
        guard (1...128).contains(value.count), value.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }) else {
            throw ProvisioError(.invalidParameter, "\(field) must be 1 to 128 visible ASCII characters.")
        }
    }
}
