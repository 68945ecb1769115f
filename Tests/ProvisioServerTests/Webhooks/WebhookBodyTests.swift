import Foundation
import ProvisioAPI
import ProvisioCore
import Testing

@testable import ProvisioServer

/// Webhook bodies come from the document's `webhooks:` section through the generated types. They
/// must be byte for byte what Provisio sent before they did: `Reference` below is the hand-written
/// shape of that earlier code, kept here as the yardstick.
@Suite struct WebhookBodyTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    static func token(deviceType: DeviceType? = .watch, last4: String? = "4242") -> TokenRecord {
        TokenRecord(
            id: "tok_1", tenantID: "ten_a", cardID: "card_1", wallet: .applePay, deviceType: deviceType,
            networkTokenRef: "ntr_1", deviceAccountIdentifier: last4 == nil ? nil : "DAI/1", tokenLast4: last4,
            state: .suspended, networkState: last4 == nil ? nil : "suspended", decision: .requireVerification,
            decisionReasons: ["low_score", "x"], createdAt: t0, updatedAt: t0.addingTimeInterval(60))
    }

    static let card = CardRecord(
        id: "card_1", tenantID: "ten_a", customerRef: "cust/1 \"é\"", accountRef: nil, panVaultRecord: "pv1.kek_x.AA.BB",
        last4: "1111", network: .visa, expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane", productTitle: nil,
        cardArtURL: nil, primaryAccountIdentifier: "V-1", status: .active, createdAt: t0, updatedAt: t0)

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func tokenEventsAreTheBytesTheyWere() throws {
        for (token, reason, actor) in [
            (Self.token(), "lost_phone" as String?, TokenActor.issuer), (Self.token(deviceType: nil, last4: nil), nil, .network),
        ] {
            let message = WebhookMessage.tokenChanged(token, type: "token.suspended", reasonCode: reason, actor: actor)
            var data = Components.Schemas.Token(token)
            data.reasonCode = reason
            data.actor = actor == .issuer ? .issuer : .network
            let before = try JSONCoding.encoder.encode(
                Reference.Envelope(type: "token.suspended", timestamp: Self.t0, data: data))
            #expect(Self.text(try message.body(at: Self.t0)) == Self.text(before))
        }
        // And what that is, spelled out once.
        let body = try WebhookMessage.tokenChanged(
            Self.token(), type: "token.suspended", reasonCode: "lost_phone", actor: .issuer
        )
        .body(at: Self.t0)
        #expect(
            Self.text(body)
                == #"{"data":{"actor":"issuer","card_id":"card_1","created_at":"2026-09-21T14:13:20Z","decision":"require_verification","decision_reasons":["low_score","x"],"device_account_identifier":"DAI/1","device_type":"watch","id":"tok_1","network_state":"suspended","network_token_ref":"ntr_1","reason_code":"lost_phone","state":"suspended","token_last4":"4242","updated_at":"2026-09-21T14:14:20Z","wallet":"apple_pay"},"timestamp":"2026-09-21T14:13:20Z","type":"token.suspended"}"#
        )
    }

    @Test func theOneTimeCodeEventIsTheBytesItWasAndItsStoredCopyHasNoCode() throws {
        let expires = Self.t0.addingTimeInterval(300)
        let message = WebhookMessage.otpRequested(
            token: Self.token(), card: Self.card, code: "123456", expiresAt: expires,
            details: OTPRequestDetails(challengeID: "chl_1", channel: .sms))
        let summary = Reference.CardSummary(id: Self.card.id, last4: Self.card.last4, customerRef: Self.card.customerRef)
        for (sent, code) in [(message, "123456" as String?), (message.withoutSecrets, nil)] {
            let payload = Reference.OTPPayload(
                token: .init(Self.token()), card: summary, code: code, expiresAt: expires, challengeID: "chl_1", channel: "sms")
            let before = try JSONCoding.encoder.encode(
                Reference.Envelope(type: "token.otp_requested", timestamp: Self.t0, data: payload))
            #expect(Self.text(try sent.body(at: Self.t0)) == Self.text(before))
        }
        #expect(Self.text(try message.body(at: Self.t0)).contains(#""code":"123456""#))
        #expect(!Self.text(try message.withoutSecrets.body(at: Self.t0)).contains("123456"))
    }

    @Test func theDecisionRequestIsTheBytesItWas() throws {
        let risk = RiskAssessment(deviceScore: 3, accountScore: 4, walletRecommendation: .requireVerification)
        for (deviceType, last4) in [(DeviceType.phone as DeviceType?, "4242" as String?), (nil, nil)] {
            let request = WebhookMessage.DecisionRequest(
                networkTokenRef: "ntr_1", wallet: .googlePay, deviceType: deviceType, tokenLast4: last4, card: Self.card,
                risk: risk, proposed: Decision(outcome: .approve, reasons: ["rules_green"]))
            let payload = Reference.DecisionPayload(
                networkTokenRef: "ntr_1", wallet: "google_pay", deviceType: deviceType?.rawValue, tokenLast4: last4,
                card: .init(id: Self.card.id, last4: Self.card.last4, customerRef: Self.card.customerRef), risk: risk,
                proposed: Decision(outcome: .approve, reasons: ["rules_green"]))
            let before = try JSONCoding.encoder.encode(
                Reference.Envelope(type: "token.decision_requested", timestamp: Self.t0, data: payload))
            #expect(Self.text(try WebhookMessage.decisionRequested(request).body(at: Self.t0)) == Self.text(before))
        }
    }

    @Test func theTestEventIsTheBytesItWas() throws {
        let before = try JSONCoding.encoder.encode(
            Reference.Envelope(type: "webhook.test", timestamp: Self.t0, data: ["endpoint_id": "whe_1"]))
        #expect(Self.text(try WebhookMessage.test(endpointID: "whe_1").body(at: Self.t0)) == Self.text(before))
    }

    @Test func anEventTypeTheDocumentLacksIsRefused() {
        let message = WebhookMessage.tokenChanged(Self.token(), type: "token.exploded", reasonCode: nil, actor: .network)
        #expect(throws: ProvisioError.self) { try message.body(at: Self.t0) }
    }

    /// The subscription list is the document's enum, and every event sent has its webhook there.
    @Test func theDocumentDescribesEveryEventThatIsSent() throws {
        let spec = try OpenAPISpec.load()
        let webhooks = Set(try #require(spec.root["webhooks"]?.objectValue).keys)
        #expect(WebhookEventType.all == Components.Schemas.WebhookEventType.allCases.map(\.rawValue))
        let sent: [WebhookMessage] = [
            .otpRequested(
                token: Self.token(), card: Self.card, code: nil, expiresAt: Self.t0,
                details: OTPRequestDetails(challengeID: "chl_1")),
            .decisionRequested(
                .init(
                    networkTokenRef: "n", wallet: .applePay, deviceType: nil, tokenLast4: nil, card: Self.card,
                    risk: .init(deviceScore: 1, accountScore: 1, walletRecommendation: .approve),
                    proposed: .init(outcome: .approve, reasons: []))),
            .test(endpointID: "whe_1"),
            .suspiciousActivity(Self.token(), events: ["REPLENISH"], networkStatus: "ACTIVE"),
        ]
        let tokenTypes = [
            "token.created", "token.updated", "token.activated", "token.suspended", "token.resumed", "token.deleted",
        ]
        #expect(webhooks == Set(sent.map(\.type) + tokenTypes))
        // Every documented webhook is a subscribable type; only provisioning.declined is not sent.
        #expect(Set(WebhookEventType.all).subtracting(webhooks) == ["provisioning.declined"])
    }

    @Test func answersAreReadThroughTheDocumentsTypes() throws {
        let channels = try WebhookMessage.otpChannels(
            from: Data(#"{"channels":[{"type":"sms","masked":"•• 12"}],"extra":true}"#.utf8))
        #expect(channels == [OTPRelay.Channel(type: "sms", masked: "•• 12")])
        #expect(throws: (any Error).self) {
            try WebhookMessage.otpChannels(from: Data(#"{"channels":[{"type":"pigeon","masked":"x"}]}"#.utf8))
        }
        #expect(throws: (any Error).self) {
            try WebhookMessage.otpChannels(from: Data(#"{"channels":[],"channels":[]}"#.utf8))
        }
        let decision = try WebhookMessage.issuerDecision(from: Data(#"{"decision":"decline","reasons":["fraud"]}"#.utf8))
        #expect(decision.outcome == .decline && decision.reasons == ["fraud"])
        #expect(throws: (any Error).self) { try WebhookMessage.issuerDecision(from: Data(#"{"decision":"maybe"}"#.utf8)) }
    }

    /// The hand-written payloads Provisio encoded before the document described them.
    enum Reference {
        struct Envelope<Payload: Encodable>: Encodable {
            var type: String
            var timestamp: Date
            var data: Payload
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

        struct OTPPayload: Encodable {
            var token: Components.Schemas.Token
            var card: CardSummary
            var code: String?
            var expiresAt: Date
            var challengeID: String
            var channel: String

            enum CodingKeys: String, CodingKey {
                case token, card, code, channel
                case expiresAt = "expires_at"
                case challengeID = "challenge_id"
            }
        }

        struct DecisionPayload: Encodable {
            var networkTokenRef: String
            var wallet: String
            var deviceType: String?
            var tokenLast4: String?
            var card: CardSummary
            var risk: RiskAssessment
            var proposed: Decision

            enum CodingKeys: String, CodingKey {
                case wallet, card, risk, proposed
                case networkTokenRef = "network_token_ref"
                case deviceType = "device_type"
                case tokenLast4 = "token_last4"
            }
        }
    }
}
