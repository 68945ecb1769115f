import Foundation
import ProvisioAPI
import ProvisioCore
import Testing

@testable import ProvisioServer

/// Issue 25: the cardholder's phone and email on the card — sealed, only masked forms leave —
/// the offers a yellow decision makes per device, and the one-time code by the chosen channel.
@Suite struct CardContactsAPITests {
    static let phone = "+14155550123"
    static let email = "jane.appleseed@example.com"
    static let newPhone = "+33612345678"

    static func createCard(
        _ server: TestServer, apiKey: String, phone: String? = Self.phone, email: String? = Self.email,
        pan: String = "4111111111111111"
    ) async throws -> Operations.CreateCard.Output {
        try await server.api(apiKey).createCard(
            body: .json(
                .init(
                    customerRef: "cust_contacts", pan: pan, expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane Appleseed",
                    cardholderPhone: phone, cardholderEmail: email)))
    }

    @Test(.timeLimit(.minutes(10)), arguments: TestEngine.available)
    func contactsAreSealedAndOnlyMaskedFormsLeave(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let created = try await Self.createCard(server, apiKey: apiKey).created.body.json
            #expect(created.cardholderPhoneMasked == "+•• ••• ••• 0123")
            #expect(created.cardholderEmailMasked == "j•••@example.com")
            let read = try await api.getCard(path: .init(id: created.id)).ok.body.json
            #expect(read.cardholderPhoneMasked == created.cardholderPhoneMasked)
            #expect(read.cardholderEmailMasked == created.cardholderEmailMasked)

            // Sealed under the card's own contexts: the vault opens them back.
            let record = try await server.services.cards.card(id: created.id, tenantID: tenantID)
            #expect(try server.services.cards.contact(.phone, of: record) == Self.phone)
            #expect(try server.services.cards.contact(.email, of: record) == Self.email)
            var moved = record
            moved.cardholderPhoneVaultRecord = record.cardholderEmailVaultRecord
            #expect(throws: ProvisioError.self) { try server.services.cards.contact(.phone, of: moved) }

            // PATCH: a new phone replaces, an empty email removes; the answer only masked.
            let patched = try await api.updateCard(
                path: .init(id: created.id), body: .json(.init(cardholderPhone: Self.newPhone, cardholderEmail: ""))
            ).ok.body.json
            #expect(patched.cardholderPhoneMasked == "+•• ••• ••• 5678" && patched.cardholderEmailMasked == nil)
            let again = try await api.updateCard(path: .init(id: created.id), body: .json(.init(cardholderEmail: "")))
                .ok.body.json
            #expect(again.cardholderEmailMasked == nil && again.cardholderPhoneMasked == "+•• ••• ••• 5678")
            let stored = try await server.services.cards.card(id: created.id, tenantID: record.tenantID)
            #expect(try server.services.cards.contact(.phone, of: stored) == Self.newPhone)
            #expect(stored.cardholderEmailVaultRecord == nil)

            // Refusals say the rule, never the value.
            let badPhone = try await Self.createCard(server, apiKey: apiKey, phone: "0612345678", pan: "5555555555554444")
            #expect(badPhone.refused(400, .invalidParameter), "\(badPhone)")
            let badEmail = try await api.updateCard(
                path: .init(id: created.id), body: .json(.init(cardholderEmail: "jane.appleseed@example")))
            #expect(badEmail.refused(400, .invalidParameter), "\(badEmail)")
            #expect(!"\(badPhone)".contains("0612345678") && !"\(badEmail)".contains("jane.appleseed@example"))
            let tooLong = try await api.updateCard(
                path: .init(id: created.id), body: .json(.init(cardholderEmail: String(repeating: "a", count: 250) + "@b.io")))
            #expect(tooLong.refused(400, .invalidParameter) || tooLong.refused(400, .invalidRequest), "\(tooLong)")

            // The audit names the fields changed, never their values.
            let audit = try await CardContactsAPITests.databaseText(server)
            #expect(audit.contains("cardholder_phone"))
            for clear in [Self.phone, Self.email, Self.newPhone, "0612345678", "jane.appleseed@example"] {
                #expect(!audit.contains(clear), "\(clear) in the database")
                #expect(!server.logs.text.contains(clear), "\(clear) in a log line")
            }
        }
    }

    @Test(.timeLimit(.minutes(10)), arguments: TestEngine.available)
    func aYellowDecisionOffersWhatTheDeviceAndTheCardAllow(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            _ = try await Self.createCard(server, apiKey: apiKey).created
            _ = try await Self.createCard(server, apiKey: apiKey, phone: nil, email: nil, pan: "5555555555554444").created
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            func decide(_ ref: String, pan: String = "4111111111111111", device: Components.Schemas.DeviceType)
                async throws -> Components.Schemas.NetworkDecision
            {
                var request = TokenAPITests.networkTokenRequest(ref: ref, pan: pan, recommendation: .requireVerification)
                request.deviceType = device
                return try await TokenAPITests.decide(server, networkKey: networkKey, request).ok.body.json
            }
            let phone = try await decide("ref-phone", device: .phone)
            #expect(phone.activationMethods == [.appToApp, .otpSms, .otpEmail])
            #expect(
                phone.activationOffers == [
                    .init(method: .appToApp), .init(method: .otpSms, contact: "+•• ••• ••• 0123"),
                    .init(method: .otpEmail, contact: "j•••@example.com"),
                ])
            _ = try await server.api(apiKey).setActivationMethodSettings(
                body: .json(.init(customerServicePhoneNumber: "+1 800 555 0100"))
            ).ok
            let watch = try await decide("ref-watch", device: .watch)
            #expect(watch.activationMethods == [.otpSms, .otpEmail, .customerService])
            #expect(watch.activationOffers?.last == .init(method: .customerService, contact: "+1 800 555 0100"))
            // A card without contacts keeps the one-time code by SMS, without a contact.
            let bare = try await decide("ref-bare", pan: "5555555555554444", device: .phone)
            #expect(
                bare.activationOffers == [
                    .init(method: .appToApp), .init(method: .otpSms), .init(method: .customerService, contact: "+1 800 555 0100"),
                ])
            let green = try await TokenAPITests.decide(
                server, networkKey: networkKey, TokenAPITests.networkTokenRequest(ref: "ref-green")
            ).ok.body.json
            #expect(green.activationOffers == nil && green.activationMethods == nil)
        }
    }

    @Test(.timeLimit(.minutes(10)), arguments: TestEngine.available)
    func theCodeGoesByTheChosenChannelWithItsMaskedDestination(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            _ = try await Self.createCard(server, apiKey: apiKey, phone: nil).created
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            _ = try await TokenAPITests.decide(
                server, networkKey: networkKey,
                TokenAPITests.networkTokenRequest(ref: "ref-otp-email", recommendation: .requireVerification)
            ).ok
            _ = try await server.api(apiKey).createWebhookEndpoint(
                body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
            ).created
            receiver.setAnswer(#"{"channels":[{"type":"email","masked":"j•••@example.com"}]}"#)
            let network = server.api(networkKey)
            func relay(_ request: Components.Schemas.NetworkOTPRequest) async throws -> Operations.RelayOneTimeCode.Output {
                try await network.relayOneTimeCode(path: .init(ref: "ref-otp-email"), body: .json(request))
            }
            // SMS was not offered: the card holds only an email.
            let sms = try await relay(.init(code: "482913", channel: .sms))
            #expect(sms.refused(422, .activationMethodNotOffered), "\(sms)")
            let defaulted = try await relay(.init(code: "482913"))
            #expect(defaulted.refused(422, .activationMethodNotOffered), "\(defaulted)")
            #expect(receiver.deliveries.isEmpty)

            let sent = try await relay(
                .init(
                    code: "482913", channel: .email, challengeId: "chl-42",
                    device: .init(
                        name: "Jane's iPhone", os: "iOS", osVersion: "19.1", serialNumber: "F2LXK0", imei: "356938035643809"),
                    tokenRequestor: .init(id: "40010030273", name: "APPLE_PAY"))
            ).ok.body.json
            #expect(sent.channels == [.init(_type: .email, masked: "j•••@example.com")])
            let body = try #require(receiver.deliveries.last).body
            let data = try #require(
                (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["data"] as? [String: Any])
            #expect(data["challenge_id"] as? String == "chl-42" && data["channel"] as? String == "email")
            #expect(data["destination_masked"] as? String == "j•••@example.com")
            #expect((data["device"] as? [String: String])?["name"] == "Jane's iPhone")
            #expect((data["device"] as? [String: String])?["os_version"] == "19.1")
            #expect((data["token_requestor"] as? [String: String]) == ["id": "40010030273", "name": "APPLE_PAY"])
            let text = String(decoding: body, as: UTF8.self)
            #expect(!text.contains(Self.email) && !text.contains("4111111111111111"))

            // Bounds on what the network sends along.
            let long = try await relay(.init(code: "482913", channel: .email, challengeId: String(repeating: "c", count: 65)))
            #expect(long.refused(400, .invalidParameter) || long.refused(400, .invalidRequest), "\(long)")
            let carded = try await relay(.init(code: "482913", channel: .email, device: .init(serialNumber: "4111111111111111")))
            #expect(carded.refused(400, .cardNumberInText), "\(carded)")

            // The stored event has no code and no clear contact.
            let stored = try await CardContactsAPITests.databaseText(server)
            #expect(!stored.contains(Self.email) && !server.logs.text.contains(Self.email))
        }
    }

    static func databaseText(_ server: TestServer) async throws -> String {
        try await MDESReissueTests.databaseText(server)
    }
}
