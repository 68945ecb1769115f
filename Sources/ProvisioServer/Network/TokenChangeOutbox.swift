import Foundation
import ProvisioCore
import ProvisioNetworkConnector

/// The card changes a card's wallet tokens must learn at the card network — a replacement's new
/// number, a reissue's new details — sent, and when the network could not take one, kept to be
/// sent again (`TokenChangeRetryWorker`) like a webhook delivery.
///
/// A change is named, never stored: each send reads the card as it then is, its number from the
/// vault, so the outbox holds no PAN and a later change supersedes an earlier one. The network
/// being unreachable, failing (5xx, 408, 429) or refusing Provisio's credentials is retried with
/// backoff until it takes the change or the token is gone; a refusal (another 4xx) is recorded
/// (`refused`, audited as `token.card_change_refused` with the code) and not retried.
public struct TokenChangeOutbox: Sendable {
    let store: any TokenChangeStore
    let tokenStore: any TokenStore
    let cards: CardService
    let connectors: NetworkConnectorResolver
    let clock: any TimeSource

    public init(
        store: any TokenChangeStore, tokenStore: any TokenStore, cards: CardService, connectors: NetworkConnectorResolver,
        clock: any TimeSource
    ) {
        self.store = store
        self.tokenStore = tokenStore
        self.cards = cards
        self.connectors = connectors
        self.clock = clock
    }

    /// The codes after which the network may take the change later: not reached, failing, or
    /// Provisio's credentials not (yet) right.
    static let retriedCodes: Set<String> = [
        ProvisioError.Code.networkUnavailable.rawValue, ProvisioError.Code.networkConnectorNotConfigured.rawValue,
        ProvisioError.Code.networkCredentialsRejected.rawValue,
    ]

    /// 30 s after the first failure, doubling to at most an hour.
    static func delay(afterFailedAttempts attempts: Int) -> TimeInterval {
        min(30 * pow(2, Double(max(attempts, 1) - 1)), 3600)
    }

    /// Sends the change, as the card now is, to one token's network, and audits it there.
    func send(_ kind: TokenChangeDeliveryRecord.Kind, card: CardRecord, token: TokenRecord) async throws {
        let connector = try await connectors.connector(tenantID: card.tenantID)
        let expiry = try CardExpiry(month: card.expiryMonth, year: card.expiryYear)
        let audit: AuditChange
        switch kind {
        case .replacement:
            _ = try await connector.send(
                .replaceFundingAccount(pan: try cards.primaryAccountNumber(of: card), expiry: expiry),
                networkTokenRef: token.networkTokenRef, reasonCode: Self.replacementReason)
            audit = AuditChange("token.funding_account_replaced", target: "token", token.id, reason: Self.replacementReason)
        case .cardDetails:
            let details = CardDetails(
                expiry: expiry, cardholderName: card.cardholderName, cardArtURL: card.cardArtURL,
                productTitle: card.productTitle)
            _ = try await connector.send(
                .updateCardDetails(details), networkTokenRef: token.networkTokenRef, reasonCode: "card_reissued")
            audit = AuditChange("token.card_details_updated", target: "token", token.id, reason: "card_reissued")
        }
        try await tokenStore.appendAudit(audit, tenantID: card.tenantID, at: clock.now())
    }

    /// The reason a replacement reaches the network with.
    static let replacementReason = "card_replaced"

    /// After a change was pushed to each token: one that took it has nothing left of that kind;
    /// one that did not is kept to retry, or recorded as refused.
    func record(_ results: [TokenCarryResult], kind: TokenChangeDeliveryRecord.Kind, card: CardRecord) async throws {
        let now = clock.now()
        for result in results {
            switch result.outcome {
            case .updated:
                try await store.completeTokenChanges(tokenID: result.tokenID, kind: kind, at: now)
            case .failed:
                let code = result.errorCode ?? ProvisioError.Code.networkUnavailable.rawValue
                let retried = Self.retriedCodes.contains(code)
                let delivery = TokenChangeDeliveryRecord(
                    id: RandomToken.identifier(prefix: "tcd_"), tenantID: card.tenantID, cardID: card.id,
                    tokenID: result.tokenID, kind: kind, state: retried ? .pending : .refused, attemptCount: 1,
                    nextAttemptAt: now.addingTimeInterval(Self.delay(afterFailedAttempts: 1)), lastErrorCode: code,
                    createdAt: now, updatedAt: now)
                try await store.recordTokenChange(delivery, audit: retried ? nil : Self.refusal(delivery))
            case .deleted, .suspended, .resumed:
                continue
            }
        }
    }

    static func refusal(_ delivery: TokenChangeDeliveryRecord) -> AuditChange {
        AuditChange(
            "token.card_change_refused", target: "token", delivery.tokenID,
            reason: "\(delivery.kind.rawValue): \(delivery.lastErrorCode ?? "network_refused")")
    }

    /// One pass: sends every change due now (up to `batch`); returns how many were tried.
    @discardableResult
    public func deliverDue(batch: Int = 50, lease: TimeInterval = 60) async throws -> Int {
        let now = clock.now()
        let due = try await store.claimDueTokenChanges(now: now, leaseUntil: now.addingTimeInterval(lease), limit: batch)
        for delivery in due { try await deliver(delivery) }
        return due.count
    }

    /// Sends one claimed change again: the card as it is to the token as it is. A token no
    /// longer live, or a card closed, ends it (`abandoned`).
    func deliver(_ claimed: TokenChangeDeliveryRecord) async throws {
        var delivery = claimed
        let card = try await cards.store.card(id: delivery.cardID, tenantID: delivery.tenantID)
        let token = try await tokenStore.token(id: delivery.tokenID, tenantID: delivery.tenantID)
        guard let card, card.status != .closed, let token, [.pendingVerification, .active, .suspended].contains(token.state)
        else {
            delivery.state = .abandoned
            delivery.updatedAt = clock.now()
            try await store.updateTokenChange(delivery, audit: nil)
            return
        }
        var audit: AuditChange?
        do {
            try await send(delivery.kind, card: card, token: token)
            delivery.state = .delivered
            delivery.lastErrorCode = nil
        } catch let error as ProvisioError {
            delivery.attemptCount += 1
            delivery.lastErrorCode = error.code.rawValue
            if Self.retriedCodes.contains(error.code.rawValue) {
                delivery.nextAttemptAt = clock.now().addingTimeInterval(Self.delay(afterFailedAttempts: delivery.attemptCount))
            } else {
                delivery.state = .refused
                audit = Self.refusal(delivery)
            }
        }
        delivery.updatedAt = clock.now()
        try await store.updateTokenChange(delivery, audit: audit)
    }
}
