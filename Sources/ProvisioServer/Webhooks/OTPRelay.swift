import Foundation
import ProvisioCore
import ProvisioCrypto

/// Flow 3b: the network's one-time code reaches the issuer as a signed `token.otp_requested`
/// webhook, sent synchronously (`SynchronousWebhook`) because the issuer's answer — the masked
/// phone number or email it sent the code to — goes back to the network and on to the
/// cardholder's screen.
public struct OTPRelay: Sendable {
    public struct Channel: Sendable, Equatable {
        public var type: String
        public var masked: String
    }

    static let eventType = "token.otp_requested"
    static let channelTypes: Set<String> = ["sms", "email", "voice", "app"]

    let store: any WebhookStore
    let vault: PANVault
    let sender: any WebhookSender
    let clock: any TimeSource
    let timeout: Duration

    public init(
        store: any WebhookStore, vault: PANVault, sender: any WebhookSender, clock: any TimeSource,
        timeout: Duration = .seconds(5)
    ) {
        self.store = store
        self.vault = vault
        self.sender = sender
        self.clock = clock
        self.timeout = timeout
    }

    /// Tries the endpoints subscribed to `token.otp_requested`, newest first, until one answers
    /// with channels; every try is recorded as a delivery. The event carries the challenge, the
    /// chosen channel and its masked destination, the device and the token requestor.
    func relay(token: TokenRecord, card: CardRecord, code: String, expiresAt: Date, details: OTPRequestDetails)
        async throws -> [Channel]
    {
        let endpoints = try await store.webhookEndpoints(tenantID: token.tenantID).filter { $0.subscribes(to: Self.eventType) }
            .reversed()
        guard !endpoints.isEmpty else {
            throw ProvisioError(
                .otpRelayNotConfigured, "No webhook endpoint of the issuer subscribes to token.otp_requested.")
        }
        // The stored copy of the event has no `code`: a live code never rests in the database,
        // and the delivery cannot be replayed.
        let message = WebhookMessage.otpRequested(
            token: token, card: card, code: code, expiresAt: expiresAt, details: details)
        let result = try await SynchronousWebhook(store: store, vault: vault, sender: sender, clock: clock).call(
            message, tenantID: token.tenantID, endpoints: Array(endpoints), timeout: timeout, parse: Self.parse)
        guard let channels = result.answer else {
            throw ProvisioError(
                .otpRelayFailed, "The one-time code could not be relayed to the issuer: \(result.failures.joined(separator: " "))"
            )
        }
        return channels
    }

    /// `{"channels": [{"type": "sms", "masked": "•••• 1234"}]}`, at least one, short values.
    static func parse(_ body: Data) throws -> [Channel] {
        guard let channels = try? WebhookMessage.otpChannels(from: body), !channels.isEmpty,
            channels.allSatisfy({ channelTypes.contains($0.type) && (1...64).contains($0.masked.count) })
        else {
            throw ProvisioError(
                .otpRelayFailed,
                "The issuer's answer is not {\"channels\": [{\"type\": sms|email|voice|app, \"masked\": …}]}.")
        }
        return channels
    }
}
