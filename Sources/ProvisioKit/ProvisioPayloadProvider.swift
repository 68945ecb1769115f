import Foundation
import ProvisioClient
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// Answers PassKit's `generateRequestWithCertificateChain` for one card: Provisio through
/// `ProvisioClient`, or the issuer's own backend through a closure.
public protocol ProvisioPayloadProvider: Sendable {
    /// The payload for `card`. Throw `ProvisioClientError` (kept whole), `ProvisioError` (its code
    /// kept) or anything else (mapped to `payload_provider_failed`). Should honour task
    /// cancellation (the deadline cancels).
    func applePayPayload(for card: WalletCard, request: ApplePayPayloadRequest, idempotencyKey: String) async throws
        -> ApplePayPayload
}

/// Calls Provisio's mobile API directly with a mobile session or provision token.
public struct ProvisioClientPayloadProvider: ProvisioPayloadProvider {
    public let client: ProvisioMobileClient

    public init(client: ProvisioMobileClient) {
        self.client = client
    }

    public func applePayPayload(for card: WalletCard, request: ApplePayPayloadRequest, idempotencyKey: String) async throws
        -> ApplePayPayload
    {
        try await client.applePayPayload(cardID: card.id, request: request, idempotencyKey: idempotencyKey)
    }
}

/// The issuer's own closure (its backend sits between the app and Provisio).
public struct ClosurePayloadProvider: ProvisioPayloadProvider {
    public typealias Body = @Sendable (WalletCard, ApplePayPayloadRequest, String) async throws -> ApplePayPayload
    private let body: Body

    public init(_ body: @escaping Body) {
        self.body = body
    }

    public func applePayPayload(for card: WalletCard, request: ApplePayPayloadRequest, idempotencyKey: String) async throws
        -> ApplePayPayload
    {
        try await body(card, request, idempotencyKey)
    }
}
