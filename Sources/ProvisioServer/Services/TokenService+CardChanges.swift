import Foundation
import ProvisioCore

/// A card's changes carried to its wallet tokens at the network: closing deletes them, a
/// reissue sends the new expiry, name and art. Each token is tried on its own; one the network
/// refuses does not stop the others.
extension TokenService {
    /// The card's tokens a network still holds live: pending, active or suspended.
    func liveTokens(cardID: String, tenantID: String) async throws -> [TokenRecord] {
        try await liveTokens(matching: TokenSearch(cardID: cardID), tenantID: tenantID)
    }

    /// Every live token the search finds, oldest first, page after page.
    func liveTokens(matching search: TokenSearch, tenantID: String) async throws -> [TokenRecord] {
        var live: [TokenRecord] = []
        var cursor: String?
        repeat {
            let page = try await store.tokens(
                matching: search, tenantID: tenantID, cursor: cursor, limit: PageSize.maximum, newestFirst: false)
            live += page.items.filter { Self.liveStates.contains($0.state) }
            cursor = page.nextCursor
        } while cursor != nil
        return live
    }

    /// The states in which a network still holds a token.
    static let liveStates: Set<TokenState> = [.pendingVerification, .active, .suspended]

    /// Deletes every live token of a closed card at the network, recording each deletion and
    /// announcing it (`token.deleted`) as an issuer change with the reason `card_closed`.
    public func deleteTokens(ofClosed card: CardRecord) async throws -> [TokenCarryResult] {
        try await carry(
            .delete(by: .issuer), reason: "card_closed", as: .deleted,
            to: try await liveTokens(cardID: card.id, tenantID: card.tenantID))
    }

    /// Suspends every active token of a locked card at the network (reason `card_locked`).
    /// Tokens already suspended for another reason stay as they are, and stay so at unlock.
    public func suspendTokens(ofLocked card: CardRecord) async throws -> [TokenCarryResult] {
        let active = try await liveTokens(cardID: card.id, tenantID: card.tenantID).filter { $0.state == .active }
        return try await carry(.suspend(by: .issuer), reason: Self.lockReason, as: .suspended, to: active)
    }

    /// Resumes the tokens the lock suspended (reason `card_unlocked`): those whose last change
    /// is the issuer's suspension for `card_locked`. A token suspended otherwise (a lost phone)
    /// stays suspended.
    public func resumeTokens(ofUnlocked card: CardRecord) async throws -> [TokenCarryResult] {
        var locked: [TokenRecord] = []
        for token in try await liveTokens(cardID: card.id, tenantID: card.tenantID) where token.state == .suspended {
            let last = try await store.tokenEvents(tokenID: token.id).last
            if last?.actor == .issuer, last?.toState == .suspended, last?.reasonCode == Self.lockReason { locked.append(token) }
        }
        return try await carry(.resume(by: .issuer), reason: "card_unlocked", as: .resumed, to: locked)
    }

    /// Makes one issuer change to each token, each on its own: one the network refuses is
    /// `failed` with its code and does not stop the others.
    private func carry(
        _ event: TokenEvent, reason: String, as outcome: TokenCarryResult.Outcome, to tokens: [TokenRecord]
    ) async throws -> [TokenCarryResult] {
        var results: [TokenCarryResult] = []
        for token in tokens {
            do {
                let changed = try await issuerChange(event, to: token, reasonCode: reason)
                results.append(TokenCarryResult(tokenID: changed.id, outcome: outcome))
            } catch let error as ProvisioError {
                results.append(TokenCarryResult(tokenID: token.id, outcome: .failed, errorCode: error.code.rawValue))
            }
        }
        return results
    }

    /// The reason a lock's suspensions carry, by which the unlock finds them again.
    static let lockReason = "card_locked"

    /// Sends a reissued card's new details to the network for every live token.
    public func sendCardDetails(_ change: CardDetails, of card: CardRecord) async throws -> [TokenCarryResult] {
        guard !change.isEmpty else { return [] }
        var results: [TokenCarryResult] = []
        for token in try await liveTokens(cardID: card.id, tenantID: card.tenantID) {
            do {
                _ = try await connectors.connector(tenantID: card.tenantID).send(
                    .updateCardDetails(change), networkTokenRef: token.networkTokenRef, reasonCode: "card_reissued")
                try await store.appendAudit(
                    AuditChange("token.card_details_updated", target: "token", token.id, reason: "card_reissued"),
                    tenantID: card.tenantID, at: clock.now())
                results.append(TokenCarryResult(tokenID: token.id, outcome: .updated))
            } catch let error as ProvisioError {
                results.append(TokenCarryResult(tokenID: token.id, outcome: .failed, errorCode: error.code.rawValue))
            }
        }
        return results
    }
}
