import Foundation
import ProvisioAPI
import ProvisioCore
import Testing

@testable import ProvisioServer

/// The yellow path's one-time code and MDES's notifications, over the listener, each through the
/// token state machine, the audit log and the webhooks as in the Provisio dialect.
@Suite struct MDESActivationTests {
    /// A pending token under `reference`, and the issuer's OTP webhook answering.
    static func pending(
        _ mdes: MDESListenerHarness, _ reference: String, receiver: WebhookReceiver, requestID: String = UUID().uuidString
    ) async throws {
        let answer = try await mdes.post(
            "authorizeService",
            try mdes.authorize(reference: reference, requestID: requestID, recommendation: "REQUIRE_ADDITIONAL_AUTHENTICATION"))
        #expect(answer["decision"] == "REQUIRE_ADDITIONAL_AUTHENTICATION", "\(answer.text)")
    }

    static func deliver(_ mdes: MDESListenerHarness, _ reference: String, code: String? = nil) async throws
        -> MDESListenerHarness.Answer
    {
        var body: [String: Any] = [
            "requestId": UUID().uuidString, "tokenUniqueReference": reference, "correlationId": "corr-1",
            "activationMethod": ["type": "TEXT_TO_CARDHOLDER_NUMBER", "value": "******4821"],
        ]
        body["activationCode"] = code
        return try await mdes.post("deliverActivationCode", body)
    }

    static func validate(_ mdes: MDESListenerHarness, _ reference: String, _ code: String) async throws -> String? {
        try await mdes.post(
            "validateActivationCode",
            [
                "requestId": UUID().uuidString, "tokenUniqueReference": reference, "correlationId": "corr-1",
                "activationCode": code,
            ]
        )["result"]
    }

    @Test(arguments: TestEngine.available)
    func codesRetriesAndExpiry(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await MDESListenerHarness.run(engine) { mdes in
            _ = try await mdes.server.api(mdes.apiKey).createWebhookEndpoint(
                body: .json(.init(url: receiver.url, events: [.token_otpRequested, .token_activated]))
            ).created
            receiver.setAnswer(#"{"channels":[{"type":"sms","masked":"******4821"}]}"#)

            // Provisio makes the code: it reaches the issuer's signed webhook, and works once.
            try await Self.pending(mdes, "TUR-GENERATED", receiver: receiver)
            let delivered = try await Self.deliver(mdes, "TUR-GENERATED")
            #expect(delivered.status == 200 && delivered.json.keys.sorted() == ["responseId"], "\(delivered.text)")
            let sent = try #require(receiver.deliveries.last)
            let code = try WebhookEvent<WebhookPayload.OTPRequested>(sent.body).data.code
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            #expect(try await Self.validate(mdes, "TUR-GENERATED", code) == "SUCCESS")
            #expect(try await mdes.token("TUR-GENERATED")?.state == .active)
            #expect(try await Self.validate(mdes, "TUR-GENERATED", code) == "EXPIRED_CODE")

            // MDES's code: two misses, the third voids it, and then even the right code is void.
            try await Self.pending(mdes, "TUR-RETRIES", receiver: receiver)
            #expect(try await Self.deliver(mdes, "TUR-RETRIES", code: "482913").status == 200)
            #expect(try await Self.validate(mdes, "TUR-RETRIES", "000000") == "INCORRECT_CODE")
            #expect(try await Self.validate(mdes, "TUR-RETRIES", "111111") == "INCORRECT_CODE")
            #expect(try await Self.validate(mdes, "TUR-RETRIES", "222222") == "INCORRECT_CODE_RETRIES_EXCEEDED")
            #expect(try await Self.validate(mdes, "TUR-RETRIES", "482913") == "EXPIRED_CODE")
            #expect(try await mdes.token("TUR-RETRIES")?.state == .pendingVerification)

            // A new delivery replaces the code; past its expiry it is expired.
            #expect(try await Self.deliver(mdes, "TUR-RETRIES", code: "135790").status == 200)
            mdes.server.clock.advance(by: 301)
            #expect(try await Self.validate(mdes, "TUR-RETRIES", "135790") == "EXPIRED_CODE")

            // A code for an unknown token, or one not pending, is refused in MDES's shape.
            #expect(try await Self.deliver(mdes, "TUR-NOBODY").errorCode == "INVALID_FIELD_VALUE")
            #expect(try await Self.deliver(mdes, "TUR-GENERATED").errorCode == "INVALID_FIELD_VALUE")

            // Never at rest in clear: the codes are nowhere in the database.
            let rows = try await mdes.server.services.handle.read { database in
                try await database.raw("SELECT code_digest FROM mdes_activation_codes").all()
                    .map { try $0.decode(column: "code_digest", as: String.self) }
            }
            #expect(!rows.isEmpty && rows.allSatisfy { $0.count == 64 && !$0.contains("135790") })
        }
    }

    @Test(arguments: TestEngine.available)
    func notificationsDriveTheStateMachine(_ engine: TestEngine) async throws {
        try await MDESListenerHarness.run(engine) { mdes in
            let pending = try await mdes.post(
                "authorizeService", try mdes.authorize(reference: "TUR-N1", recommendation: "REQUIRE_ADDITIONAL_AUTHENTICATION"))
            #expect(pending["decision"] == "REQUIRE_ADDITIONAL_AUTHENTICATION")
            let tokenData: [String: Any] = [
                "dataValidUntilTimestamp": MDESListenerHarness.timestamp(mdes.server.clock.now().addingTimeInterval(600)),
                "tokenData": ["token": "5204731600014792", "expiryMonth": "12", "expiryYear": "33"],
            ]
            let activated = try await mdes.post(
                "notifyServiceActivated",
                [
                    "requestId": "act-1", "services": ["DIGITIZATION"], "correlationId": "corr-1",
                    "tokenRequestorId": "50110030273", "tokenType": "CLOUD", "accountPanSuffix": "1234",
                    "serviceRequestDateTime": "2029-12-31T23:59:00.000Z", "tokenActivatedDateTime": "2030-01-01T00:00:00Z",
                    "decision": "REQUIRE_ADDITIONAL_AUTHENTICATION",
                    "fundingAccountInfo": ["tokenUniqueReference": "TUR-N1", "encryptedPayload": try mdes.encrypt(tokenData)],
                ])
            #expect(activated.status == 200 && activated["responseId"] == "act-1", "\(activated.text)")
            #expect(try await mdes.token("TUR-N1")?.state == .active)

            func update(_ status: String, suspendedBy: [String]? = nil, reason: String = "STATUS_UPDATE") async throws
                -> MDESListenerHarness.Answer
            {
                var token: [String: Any] = ["tokenUniqueReference": "TUR-N1", "status": status]
                token["suspendedBy"] = suspendedBy
                return try await mdes.post(
                    "notifyTokenUpdated", ["requestId": UUID().uuidString, "reasonCode": reason, "tokens": [token]])
            }
            #expect(try await update("SUSPENDED", suspendedBy: ["ISSUER"]).status == 200)
            let suspended = try #require(try await mdes.token("TUR-N1"))
            #expect(suspended.state == .suspended && suspended.networkState == "SUSPENDED")
            let events = try await mdes.server.services.tokens.events(of: suspended)
            #expect(events.last?.actor == .issuer && events.last?.reasonCode == "SUSPENDED:ISSUER")
            let resumed = try await update("ACTIVE")
            #expect(resumed.status == 200, "\(resumed.text)")
            #expect(try await mdes.token("TUR-N1")?.state == .active)
            #expect(try await update("SUSPENDED", suspendedBy: ["CARDHOLDER", "ISSUER"]).status == 200)
            #expect(try await mdes.server.services.tokens.events(of: suspended).last?.actor == .network)
            // Redigitization and the rest: recorded, no state change.
            #expect(try await update("ACTIVE", reason: "REDIGITIZATION_COMPLETE").status == 200)
            #expect(try await mdes.token("TUR-N1")?.state == .suspended)
            #expect(try await update("DEACTIVATED").status == 200)
            #expect(try await mdes.token("TUR-N1")?.state == .deleted)
            // Reported again: nothing left to change, recorded only.
            #expect(try await update("DEACTIVATED").status == 200)

            let suspicious = try await mdes.post(
                "notifySuspiciousEvents",
                [
                    "requestId": "sus-1", "tokenUniqueReference": "TUR-N1", "status": "ACTIVE",
                    "events": [["eventName": "REPLENISH"]],
                ])
            #expect(suspicious.status == 200, "\(suspicious.text)")
            let unknown = try await mdes.post(
                "notifyTokenUpdated",
                [
                    "requestId": "upd-x", "reasonCode": "STATUS_UPDATE",
                    "tokens": [["tokenUniqueReference": "TUR-NONE", "status": "ACTIVE"]],
                ])
            #expect(unknown.status == 400 && unknown.errorCode == "INVALID_FIELD_VALUE", "\(unknown.text)")

            // Every change is in the audit log.
            let actions = try await mdes.server.services.handle.read { database in
                try await database.raw("SELECT action FROM audit_events").all().map {
                    try $0.decode(column: "action", as: String.self)
                }
            }
            #expect(actions.contains("mdes.suspicious_events") && actions.contains("mdes.token_updated"), "\(actions)")
        }
    }
}
