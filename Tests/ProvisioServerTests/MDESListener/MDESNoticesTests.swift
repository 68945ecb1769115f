import Foundation
import ProvisioAPI
import ProvisioCore
import Testing

@testable import ProvisioServer

/// What the listener offers and keeps beyond a token's state: the issuer's own activation
/// methods (`/v1/settings/activation-methods`), the token's last four digits and expiry from
/// `tokenData` and redigitization, and a webhook for suspicious events.
@Suite struct MDESNoticesTests {
    static func yellow(_ mdes: MDESListenerHarness, _ reference: String, formFactor: String = "PHONE") async throws
        -> [[String: String]]
    {
        let answer = try await mdes.post(
            "authorizeService",
            try mdes.authorize(reference: reference, recommendation: "REQUIRE_ADDITIONAL_AUTHENTICATION", formFactor: formFactor))
        #expect(answer["decision"] == "REQUIRE_ADDITIONAL_AUTHENTICATION", "\(answer.text)")
        return answer.json["activationMethods"] as? [[String: String]] ?? []
    }

    @Test(arguments: TestEngine.available)
    func activationMethodsAreTheIssuersOwn(_ engine: TestEngine) async throws {
        try await MDESListenerHarness.run(engine) { mdes in
            let api = mdes.server.api(mdes.apiKey)
            // Nothing set, no contact in the payload: nothing to offer (no placeholder, no tenant id).
            #expect(try await api.getActivationMethodSettings().ok.body.json == .init())
            #expect(try await Self.yellow(mdes, "TUR-AM-1").isEmpty)

            let set = try await api.setActivationMethodSettings(
                body: .json(
                    .init(
                        customerServicePhoneNumber: "1-800-BANK-NUMBER", automatedPhoneNumber: "+44 (20) 7946 0958",
                        appIdentifier: "com.acme.bank"))
            ).ok.body.json
            #expect(set.appIdentifier == "com.acme.bank")
            #expect(try await api.getActivationMethodSettings().ok.body.json == set)
            let phone = try await Self.yellow(mdes, "TUR-AM-2")
            #expect(
                phone == [
                    ["type": "CARDHOLDER_TO_USE_MOBILE_APP", "value": "com.acme.bank"],
                    ["type": "CARDHOLDER_TO_CALL_MANNED_NUMBER", "value": "1-800-BANK-NUMBER"],
                    ["type": "CARDHOLDER_TO_CALL_AUTOMATED_NUMBER", "value": "+44 (20) 7946 0958"],
                ])
            let watch = try await Self.yellow(mdes, "TUR-AM-3", formFactor: "WATCH")
            #expect(
                watch.map { $0["type"] ?? "" } == ["CARDHOLDER_TO_CALL_MANNED_NUMBER", "CARDHOLDER_TO_CALL_AUTOMATED_NUMBER"])

            // A PUT replaces all three: what is left out is no longer offered.
            _ = try await api.setActivationMethodSettings(body: .json(.init(appIdentifier: "com.acme.bank"))).ok
            #expect(try await Self.yellow(mdes, "TUR-AM-4").map { $0["type"] ?? "" } == ["CARDHOLDER_TO_USE_MOBILE_APP"])
            _ = try await api.setActivationMethodSettings(body: .json(.init())).ok
            #expect(try await Self.yellow(mdes, "TUR-AM-5").isEmpty)

            // Each value within its rule, and never a card number.
            for bad in [
                Components.Schemas.ActivationMethodSettings(customerServicePhoneNumber: "12"),
                .init(automatedPhoneNumber: "call 555-0100 <now>"),
                .init(appIdentifier: ".acme"), .init(appIdentifier: "com acme"),
                .init(customerServicePhoneNumber: String(repeating: "1", count: 65)),
            ] {
                let refused = try await api.setActivationMethodSettings(body: .json(bad))
                #expect(refused.refused(400, .invalidParameter), "\(bad): \(refused)")
            }
            let card = try await api.setActivationMethodSettings(
                body: .json(.init(customerServicePhoneNumber: "4111 1111 1111 1111")))
            #expect(card.refused(400, .cardNumberInText), "\(card)")
            #expect(try await api.getActivationMethodSettings().ok.body.json == .init())
        }
    }

    /// The stored webhook events of a type, as JSON.
    static func events(_ mdes: MDESListenerHarness, type: String) async throws -> [[String: Any]] {
        try await mdes.server.services.handle.read { database in
            try await database.raw(
                "SELECT payload FROM webhook_events WHERE tenant_id = \(bind: mdes.tenantID) AND type = \(bind: type) ORDER BY created_at"
            ).all().map { try $0.decode(column: "payload", as: String.self) }
        }.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:] }
    }

    @Test(arguments: TestEngine.available)
    func theTokensOwnDetailsAreKept(_ engine: TestEngine) async throws {
        try await MDESListenerHarness.run(engine) { mdes in
            _ = try await Self.yellow(mdes, "TUR-TD-1")
            func payload(_ token: String, _ month: String, _ year: String) throws -> [String: Any] {
                try mdes.encrypt([
                    "dataValidUntilTimestamp": MDESListenerHarness.timestamp(mdes.server.clock.now().addingTimeInterval(600)),
                    "tokenData": ["token": token, "expiryMonth": month, "expiryYear": year, "sequenceNumber": "01"],
                ])
            }
            let activated = try await mdes.post(
                "notifyServiceActivated",
                [
                    "requestId": "td-1", "services": ["DIGITIZATION"], "correlationId": "corr-1",
                    "tokenRequestorId": "50110030273", "tokenType": "CLOUD", "accountPanSuffix": "1232",
                    "serviceRequestDateTime": "2029-12-31T23:59:00.000Z", "tokenActivatedDateTime": "2030-01-01T00:00:00Z",
                    "decision": "REQUIRE_ADDITIONAL_AUTHENTICATION",
                    "fundingAccountInfo": [
                        "tokenUniqueReference": "TUR-TD-1", "encryptedPayload": try payload("5204731600014792", "07", "29"),
                    ],
                ])
            #expect(activated.status == 200, "\(activated.text)")
            var token = try #require(try await mdes.token("TUR-TD-1"))
            #expect(token.state == .active && token.tokenLast4 == "4792")
            #expect(token.tokenExpiryMonth == 7 && token.tokenExpiryYear == 2029)
            // The activation's webhook carries them; the API shows them.
            let activation = try #require(try await Self.events(mdes, type: "token.activated").last?["data"] as? [String: Any])
            #expect(activation["token_last4"] as? String == "4792" && activation["token_expiry_month"] as? Int == 7)
            let shown = try await mdes.server.api(mdes.apiKey).getToken(path: .init(id: token.id)).ok.body.json
            #expect(shown.tokenExpiryMonth == 7 && shown.tokenExpiryYear == 2029)

            func update(_ reason: String, _ fields: [String: Any]) async throws -> MDESListenerHarness.Answer {
                try await mdes.post(
                    "notifyTokenUpdated",
                    [
                        "requestId": UUID().uuidString, "reasonCode": reason,
                        "tokens": [["tokenUniqueReference": "TUR-TD-1"].merging(fields) { $1 }],
                    ])
            }
            // Redigitization with MMYY only: the new expiry, announced as token.updated.
            let announced = try await Self.events(mdes, type: "token.updated").count
            #expect(try await update("REDIGITIZATION_COMPLETE", ["tokenExpiry": "0831"]).status == 200)
            token = try #require(try await mdes.token("TUR-TD-1"))
            #expect(token.tokenExpiryMonth == 8 && token.tokenExpiryYear == 2031 && token.tokenLast4 == "4792")
            let updated = try #require(try await Self.events(mdes, type: "token.updated").last?["data"] as? [String: Any])
            #expect(
                updated["token_expiry_year"] as? Int == 2031 && updated["reason_code"] as? String == "REDIGITIZATION_COMPLETE")
            // A new account, with the token's new number encrypted: its last four and expiry.
            let moved = try await update(
                "FUNDING_ACCOUNT_UPDATE",
                ["fundingAccountInfo": ["encryptedPayload": try payload("5204731600019999", "09", "32")]])
            #expect(moved.status == 200, "\(moved.text)")
            token = try #require(try await mdes.token("TUR-TD-1"))
            #expect(token.tokenLast4 == "9999" && token.tokenExpiryMonth == 9 && token.tokenExpiryYear == 2032)
            #expect(try await Self.events(mdes, type: "token.updated").count == announced + 2)
            // The same expiry again changes nothing; a month 13 is refused and changes nothing.
            #expect(try await update("REDIGITIZATION_COMPLETE", ["tokenExpiry": "0932"]).status == 200)
            #expect(try await Self.events(mdes, type: "token.updated").count == announced + 2)
            let bad = try await update("REDIGITIZATION_COMPLETE", ["tokenExpiry": "1333"])
            #expect(bad.status == 400 && bad.errorCode == "INVALID_FIELD_VALUE", "\(bad.text)")
            #expect(try await mdes.token("TUR-TD-1")?.tokenExpiryMonth == 9)
            // Nothing of the token's number but its last four is stored.
            let rows = try await mdes.server.services.handle.read { database in
                try await database.raw("SELECT payload FROM webhook_events").all().map {
                    try $0.decode(column: "payload", as: String.self)
                }
            }
            #expect(!rows.contains { $0.contains("5204731600014792") || $0.contains("5204731600019999") })
        }
    }

    @Test(arguments: TestEngine.available)
    func suspiciousEventsAreAnnounced(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await MDESListenerHarness.run(engine) { mdes in
            let endpoint = try await mdes.server.api(mdes.apiKey).createWebhookEndpoint(
                body: .json(.init(url: receiver.url, events: [.token_suspiciousActivity]))
            ).created.body.json
            let approved = try await mdes.post("authorizeService", try mdes.authorize(reference: "TUR-SUS-1"))
            #expect(approved["decision"] == "APPROVED")
            let answer = try await mdes.post(
                "notifySuspiciousEvents",
                [
                    "requestId": "sus-1", "tokenUniqueReference": "TUR-SUS-1", "status": "ACTIVE",
                    "events": [["eventName": "REPLENISH"], ["eventName": "a new kind"]],
                ])
            #expect(answer.status == 200 && answer.json.keys.sorted() == ["responseId"], "\(answer.text)")
            #expect(try await mdes.token("TUR-SUS-1")?.state == .active)
            let event = try #require(try await Self.events(mdes, type: "token.suspicious_activity").last)
            let data = try #require(event["data"] as? [String: Any])
            #expect(data["events"] as? [String] == ["REPLENISH", "OTHER"] && data["network_status"] as? String == "ACTIVE")
            #expect((data["token"] as? [String: Any])?["network_token_ref"] as? String == "TUR-SUS-1")
            let deliveries = try await mdes.server.services.handle.read { database in
                try await database.raw(
                    "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = \(bind: endpoint.id)"
                ).first().map { try $0.decode(column: "n", as: Int.self) }
            }
            #expect(deliveries == 1)
            let actions = try await mdes.server.services.handle.read { database in
                try await database.raw("SELECT action, reason FROM audit_events WHERE action = 'mdes.suspicious_events'").all()
                    .map { try $0.decode(column: "reason", as: String?.self) }
            }
            #expect(actions == ["REPLENISH,OTHER"])
        }
    }
}
