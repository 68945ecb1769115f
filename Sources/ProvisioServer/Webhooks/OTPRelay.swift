import Foundation
import ProvisioCore
import ProvisioCrypto

/// Flow 3b: the network's one-time code reaches the issuer as a signed `token.otp_requested`
/// webhook, sent synchronously because the issuer's answer — the masked phone number or email
/// it sent the code to — goes back to the network and on to the cardholder's screen. The call
/// is recorded like any delivery (event, delivery, attempt), so it shows in the delivery list.
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

    struct Payload: Encodable {
        var token: TokenWire
        var card: CardSummary
        var code: String
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
        let now = clock.now()
        let envelope = WebhookPublisher.Envelope(
            type: Self.eventType, timestamp: now,
            data: Payload(
                token: TokenWire(token), card: CardSummary(id: card.id, last4: card.last4, customerRef: card.customerRef),
                code: code,
                expiresAt: expiresAt))
        let body = try JSONCoding.encoder.encode(envelope)
        let event = WebhookEventRecord(
            id: RandomToken.identifier(prefix: "msg_"), tenantID: token.tenantID, type: Self.eventType,
            payload: String(decoding: body, as: UTF8.self), createdAt: now)
        var failures: [String] = []
        var deliveries: [(WebhookDeliveryRecord, WebhookAttemptRecord)] = []
        var channels: [Channel]?
        for endpoint in endpoints where channels == nil {
            let (answer, failure, status, elapsed) = await call(endpoint, event: event, body: body, at: now)
            channels = answer
            if let failure { failures.append(failure) }
            let delivery = WebhookDeliveryRecord(
                id: RandomToken.identifier(prefix: "whd_"), tenantID: token.tenantID, eventID: event.id, endpointID: endpoint.id,
                state: failure == nil ? .succeeded : .failed, attemptCount: 1, nextAttemptAt: now, lastResponseStatus: status,
                lastError: failure, createdAt: now, updatedAt: clock.now())
            let attempt = WebhookAttemptRecord(
                id: RandomToken.identifier(prefix: "wha_"), deliveryID: delivery.id, attemptedAt: now, responseStatus: status,
                error: failure, durationMilliseconds: Int(elapsed.components.seconds * 1000))
            deliveries.append((delivery, attempt))
        }
        try await store.enqueue(event: event, deliveries: deliveries.map(\.0))
        for (delivery, attempt) in deliveries { try await store.recordWebhookAttempt(attempt, delivery: delivery) }
        guard let channels else {
            throw ProvisioError(
                .otpRelayFailed, "The one-time code could not be relayed to the issuer: \(failures.joined(separator: " "))")
        }
        return channels
    }

    private func call(_ endpoint: WebhookEndpointRecord, event: WebhookEventRecord, body: Data, at now: Date) async
        -> (channels: [Channel]?, failure: String?, status: Int?, elapsed: Duration)
    {
        let started = ContinuousClock.now
        do {
            let secret = try vault.openSecret(
                VaultRecord(serialized: endpoint.secretVaultRecord),
                context: WebhookEndpointRecord.vaultContext(tenantID: endpoint.tenantID, endpointID: endpoint.id))
            let signer = try WebhookSigner(secret: String(decoding: secret, as: UTF8.self))
            let answer = try await sender.send(
                url: endpoint.url, headers: signer.headers(id: event.id, timestamp: Int64(now.timeIntervalSince1970), body: body),
                body: body, timeout: timeout)
            guard (200..<300).contains(answer.status) else {
                return (nil, "The issuer answered HTTP \(answer.status).", answer.status, ContinuousClock.now - started)
            }
            do {
                return (try Self.parse(answer.body), nil, answer.status, ContinuousClock.now - started)
            } catch let error as ProvisioError {
                return (nil, error.message, answer.status, ContinuousClock.now - started)
            }
        } catch let error as ProvisioError {
            return (nil, error.message, nil, ContinuousClock.now - started)
        } catch {
            return (nil, "The issuer's endpoint could not be reached (\(type(of: error))).", nil, ContinuousClock.now - started)
        }
    }

    /// `{"channels": [{"type": "sms", "masked": "•••• 1234"}]}`, at least one, short values.
    static func parse(_ body: Data) throws -> [Channel] {
        guard let answer = try? JSONDecoder().decode(Answer.self, from: body), !answer.channels.isEmpty,
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
    public static let otpRelayNotConfigured: Self = "otp_relay_not_configured"
    public static let otpRelayFailed: Self = "otp_relay_failed"
    public static let invalidOTP: Self = "invalid_otp"
}
