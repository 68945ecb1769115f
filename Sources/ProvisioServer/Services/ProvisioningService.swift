import Foundation
import ProvisioCore
import ProvisioCrypto

/// Builds wallet payloads for a card and records every attempt (never the PAN).
public struct ProvisioningService: Sendable {
    let store: any ProvisioStore
    let cards: CardService
    let applePayloads: ApplePayloadBuilder
    let pushData: WalletPushDataBuilder
    /// The tenant's keys for Google's opaque payment card (Unified Push Provisioning).
    let googlePay: GooglePayKeyService
    let metrics: ProvisioMetrics
    let clock: any TimeSource

    public init(
        store: any ProvisioStore, cards: CardService, applePayloads: ApplePayloadBuilder, pushData: WalletPushDataBuilder,
        googlePay: GooglePayKeyService, metrics: ProvisioMetrics, clock: any TimeSource
    ) {
        self.store = store
        self.cards = cards
        self.applePayloads = applePayloads
        self.pushData = pushData
        self.googlePay = googlePay
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

    /// Google Pay's push data: TapAndPay's legacy fields, and with a `credentials` request that
    /// asks for it (Unified Push Provisioning) the Google OPC too.
    public func googlePay(card: CardRecord, userAddress: UserAddress?, credentials: GooglePaymentCredentialsRequest?)
        async throws -> WalletPushData
    {
        try await recordingAttempt(card: card, wallet: .googlePay, deviceType: nil, scheme: nil) {
            try cards.requireEligible(card)
            let pan = try cards.primaryAccountNumber(of: card)
            var data = try pushData.build(card: card, pan: pan, wallet: .googlePay, userAddress: userAddress, at: clock.now())
            if let credentials, credentials.googleOpaquePaymentCardRequested {
                data.googleOpaquePaymentCard = try await googlePay.googleOpaquePaymentCard(
                    card: card, pan: pan, serverSessionID: credentials.serverSessionID)
            }
            return data
        }
    }

    /// Samsung Pay's `addCard` data: the network's opaque payment card in base64, and the card
    /// network's tokenization provider (`unsupported_network` for a network Samsung has none for).
    public func samsungPay(card: CardRecord, walletInfo: SamsungPayWalletIDs) async throws -> SamsungPayPushData {
        try await recordingAttempt(card: card, wallet: .samsungPay, deviceType: nil, scheme: nil) {
            try cards.requireEligible(card)
            let pan = try cards.primaryAccountNumber(of: card)
            let data = try pushData.build(card: card, pan: pan, wallet: .samsungPay, userAddress: nil, at: clock.now())
            return try SamsungPayPushData(data, network: card.network)
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
        card: CardRecord, wallet: Wallet, deviceType: DeviceType?, scheme: EncryptionScheme?,
        _ body: () async throws -> Result
    ) async throws -> Result {
        var attempt = ProvisioningAttemptRecord(
            id: RandomToken.identifier(prefix: "att_"), tenantID: card.tenantID, cardID: card.id, wallet: wallet,
            deviceType: deviceType, encryptionScheme: scheme, outcome: .succeeded, errorCode: nil, createdAt: clock.now())
        do {
            let result = try await body()
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
