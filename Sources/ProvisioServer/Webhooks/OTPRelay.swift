import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto

/// Flow 3b: the network's one-time code reaches the issuer as a signed `token.otp_requested`
/// webhook, sent synchronously (`SynchronousWebhook`) because the issuer's answer — the masked
/// phone number or email it sent the code to — goes back to the network and on to the
/// cardholder's screen.
public struct OTPRelay: Sendable {
    public struct Channel: Codable, Sendable, Equatable {
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

    /// What the issuer receives. The stored copy of the event has no `code` (nil is left out):
    /// a live code never rests in the database, and the delivery cannot be replayed.
    struct Payload: Encodable {
        var token: Components.Schemas.Token
        var card: CardSummary
        var code: String?
        var expiresAt: Date

        enum CodingKeys: String, CodingKey {
            case token, card, code
            case expiresAt = "expires_at"
        }
    }

    struct CardSummary: Encodable {
        var id: String
        var last4: String
        var customerRef: String

        enum CodingKeys: String, CodingKey {
            case id, last4
            case customerRef = "customer_ref"
        }
    }

    struct Answer: Decodable {
        var channels: [Channel]
    }

    /// Tries the endpoints subscribed to `token.otp_requested`, newest first, until one answers
    /// with channels; every try is recorded as a delivery.
    func relay(token: TokenRecord, card: CardRecord, code: String, expiresAt: Date) async throws -> [Channel] {
        let endpoints = try await store.webhookEndpoints(tenantID: token.tenantID).filter { $0.subscribes(to: Self.eventType) }
            .reversed()
        guard !endpoints.isEmpty else {
            throw ProvisioError(
                .otpRelayNotConfigured, "No webhook endpoint of the issuer subscribes to token.otp_requested.")
        }
        let payload = Payload(
            token: Components.Schemas.Token(token),
            card: CardSummary(id: card.id, last4: card.last4, customerRef: card.customerRef), code: code,
            expiresAt: expiresAt)
        var withheld = payload
        withheld.code = nil
        let result = try await SynchronousWebhook(store: store, vault: vault, sender: sender, clock: clock).call(
            type: Self.eventType, data: payload, stored: withheld, tenantID: token.tenantID, endpoints: Array(endpoints),
            timeout: timeout, parse: Self.parse)
        guard let channels = result.answer else {
            throw ProvisioError(
                .otpRelayFailed, "The one-time code could not be relayed to the issuer: \(result.failures.joined(separator: " "))"
            )
        }
        return channels
    }

    /// `{"channels": [{"type": "sms", "masked": "•••• 1234"}]}`, at least one, short values.
    static func parse(_ body: Data) throws -> [Channel] {
        guard (try? StrictJSONParser.parse(body)) != nil, let answer = try? JSONDecoder().decode(Answer.self, from: body),
            !answer.channels.isEmpty,
            answer.channels.allSatisfy({ channelTypes.contains($0.type) && (1...64).contains($0.masked.count) })
        else {
            throw ProvisioError(
                .otpRelayFailed,
                "The issuer's answer is not {\"channels\": [{\"type\": sms|email|voice|app, \"masked\": …}]}.")
        }
        return answer.channels
    }
}

extension ProvisioError.Code {
    public static let otpRelayNotConfigured = Self("otp_relay_not_configured", status: .badGateway)
    public static let otpRelayFailed = Self("otp_relay_failed", status: .badGateway)
    public static let invalidOTP = Self("invalid_otp", status: .badRequest)
}
