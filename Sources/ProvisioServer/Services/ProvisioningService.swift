import Foundation
import ProvisioCore
import ProvisioCrypto

/// Builds wallet payloads for a card and records every attempt (never the PAN).
public struct ProvisioningService: Sendable {
    let store: any ProvisioStore
    let cards: CardService
    let applePayloads: ApplePayloadBuilder
    let pushData: WalletPushDataBuilder
    let metrics: ProvisioMetrics
    let clock: any TimeSource

    public init(
        store: any ProvisioStore, cards: CardService, applePayloads: ApplePayloadBuilder, pushData: WalletPushDataBuilder,
        metrics: ProvisioMetrics, clock: any TimeSource
    ) {
        self.store = store
        self.cards = cards
        self.applePayloads = applePayloads
        self.pushData = pushData
        self.metrics = metrics
        self.clock = clock
    }

    /// Builds the Apple Pay payload for `card`. The challenge comes as the edge read it: one it
    /// refused (a bad nonce, an unknown scheme) is still recorded as a failed attempt, since the
    /// app did try to add this card.
    public func applePay(card: CardRecord, deviceType: DeviceType?, challenge: Result<PassKitChallenge, ProvisioError>)
        async throws -> ApplePayloadResponse
    {
        let scheme = try? challenge.get().scheme
        return try await recordingAttempt(card: card, wallet: .applePay, deviceType: deviceType, scheme: scheme) {
            try cards.requireEligible(card)
            let request = ApplePayloadRequest(
                primaryAccountNumber: try cards.primaryAccountNumber(of: card),
                expiry: try CardExpiry(month: card.expiryMonth, year: card.expiryYear),
                name: try CardholderName(card.cardholderName), challenge: try challenge.get())
            return try applePayloads.build(request, at: clock.now())
        }
    }

    public func pushProvisioning(card: CardRecord, wallet: Wallet, userAddress: UserAddress?) async throws -> WalletPushData {
        try await recordingAttempt(card: card, wallet: wallet, deviceType: nil, scheme: nil) {
            try cards.requireEligible(card)
            let pan = try cards.primaryAccountNumber(of: card)
            return try pushData.build(card: card, pan: pan, wallet: wallet, userAddress: userAddress, at: clock.now())
        }
    }

    public func attempts(cardID: String, tenantID: String, cursor: String?, limit: Int?) async throws
        -> Page<ProvisioningAttemptRecord>
    {
        _ = try await cards.card(id: cardID, tenantID: tenantID)
        return try await store.attempts(
            cardID: cardID, tenantID: tenantID, cursor: cursor, limit: try PageSize.resolve(limit))
    }

    private func recordingAttempt<Result: Sendable>(
        card: CardRecord, wallet: Wallet, deviceType: DeviceType?, scheme: EncryptionScheme?, _ body: () throws -> Result
    ) async throws -> Result {
        var attempt = ProvisioningAttemptRecord(
            id: RandomToken.identifier(prefix: "att_"), tenantID: card.tenantID, cardID: card.id, wallet: wallet,
            deviceType: deviceType, encryptionScheme: scheme, outcome: .succeeded, errorCode: nil, createdAt: clock.now())
        do {
            let result = try body()
            try await store.insertAttempt(attempt)
            metrics.recordProvisioning(wallet: wallet, outcome: .succeeded)
            return result
        } catch let error as ProvisioError {
            attempt.outcome = .failed
            attempt.errorCode = error.code.rawValue
            try await store.insertAttempt(attempt)
            metrics.recordProvisioning(wallet: wallet, outcome: .failed)
            throw error
        }
    }
}
