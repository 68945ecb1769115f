import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import Testing

@testable import ProvisioServer

/// authorizeService and requestActivationMethods over the listener: green, yellow and red, the
/// token recorded under `tokenUniqueReference`, and every encryption variant MDES may send.
@Suite struct MDESDecisionTests {
    @Test(arguments: TestEngine.available)
    func greenYellowAndRed(_ engine: TestEngine) async throws {
        try await MDESListenerHarness.run(engine) { mdes in
            _ = try await mdes.server.api(mdes.apiKey).setActivationMethodSettings(
                body: .json(.init(customerServicePhoneNumber: "+1 800 555 0100", appIdentifier: "com.acme.bank"))
            ).ok
            let green = try await mdes.post(
                "authorizeService", try mdes.authorize(reference: "DWSPMC0000000001", requestID: "req-green"))
            #expect(green.status == 200, "\(green.text)")
            #expect(green["decision"] == "APPROVED" && green["responseId"] == "req-green")
            #expect(try await mdes.token("DWSPMC0000000001")?.state == .active)

            // Yellow on a phone: masked contacts from the payload, the issuer's app and number.
            let contact: [String: Any] = [
                "accountHolderData": [
                    "accountHolderEmailAddress": "jane@example.com",
                    "accountHolderMobilePhoneNumber": ["countryDialInCode": "1", "phoneNumber": "4155554821"],
                ]
            ]
            let yellow = try await mdes.post(
                "authorizeService",
                try mdes.authorize(
                    reference: "DWSPMC0000000002", payload: try mdes.encrypt(mdes.cardPlaintext(extra: contact)),
                    recommendation: "REQUIRE_ADDITIONAL_AUTHENTICATION"))
            #expect(yellow["decision"] == "REQUIRE_ADDITIONAL_AUTHENTICATION", "\(yellow.text)")
            let methods = (yellow.json["activationMethods"] as? [[String: String]]) ?? []
            #expect(
                methods.map { $0["type"] ?? "" } == [
                    "TEXT_TO_CARDHOLDER_NUMBER", "EMAIL_TO_CARDHOLDER_ADDRESS", "CARDHOLDER_TO_USE_MOBILE_APP",
                    "CARDHOLDER_TO_CALL_MANNED_NUMBER",
                ])
            #expect(
                methods.map { $0["value"] ?? "" } == ["******4821", "j***@example.com", "com.acme.bank", "+1 800 555 0100"])
            #expect(!yellow.text.contains("4155554821") && !yellow.text.contains("jane@"))
            #expect(try await mdes.token("DWSPMC0000000002")?.state == .pendingVerification)

            // Yellow on a watch: no app method.
            let watch = try await mdes.post(
                "authorizeService",
                try mdes.authorize(reference: "DWSPMC0000000003", deviceScore: "2", formFactor: "WATCH"))
            #expect(watch["decision"] == "REQUIRE_ADDITIONAL_AUTHENTICATION", "\(watch.text)")
            let watchMethods = (watch.json["activationMethods"] as? [[String: String]])?.map { $0["type"] ?? "" }
            #expect(watchMethods == ["CARDHOLDER_TO_CALL_MANNED_NUMBER"])

            // Red: the wallet's red (the rules follow it), an unknown card, a wrong expiry.
            let red = try await mdes.post(
                "authorizeService", try mdes.authorize(reference: "DWSPMC0000000004", recommendation: "DECLINED"))
            #expect(red["decision"] == "DECLINED" && red["declineReasonCode"] == "DO_NOT_HONOR", "\(red.text)")
            #expect(try await mdes.token("DWSPMC0000000004")?.state == .declined)
            let unknown = try await mdes.post(
                "authorizeService",
                try mdes.authorize(
                    reference: "DWSPMC0000000005", payload: try mdes.encrypt(mdes.cardPlaintext(pan: "5555555555554444"))))
            #expect(unknown["decision"] == "DECLINED" && unknown["declineReasonCode"] == "INVAL_CARD", "\(unknown.text)")
            let wrongExpiry = try await mdes.post(
                "authorizeService",
                try mdes.authorize(reference: "DWSPMC0000000006", payload: try mdes.encrypt(mdes.cardPlaintext(year: "31"))))
            #expect(wrongExpiry["declineReasonCode"] == "INVAL_CARD", "\(wrongExpiry.text)")
            #expect(try await mdes.token("DWSPMC0000000005") == nil)

            // requestActivationMethods: the card's methods, none for a card not the issuer's.
            var ask = try mdes.authorize(reference: "DWSPMC0000000002")
            ask["walletProviderDecisioningInfo"] = nil
            let asked = try await mdes.post("requestActivationMethods", ask)
            #expect((asked.json["activationMethods"] as? [Any])?.count == 2, "\(asked.text)")
            ask["requestId"] = "ask-unknown"
            var funding = ask["fundingAccountInfo"] as! [String: Any]
            funding["encryptedPayload"] = try mdes.encrypt(mdes.cardPlaintext(pan: "5555555555554444"))
            ask["fundingAccountInfo"] = funding
            let none = try await mdes.post("requestActivationMethods", ask)
            #expect(none.status == 200 && (none.json["activationMethods"] as? [Any])?.isEmpty == true, "\(none.text)")
        }
    }

    /// The fixture vectors (Python's `cryptography`, from the document) through the listener:
    /// {GCM, CBC} × {OAEP-SHA256, OAEP-SHA512, PKCS#1 v1.5} × {AES-128, AES-256}, and the
    /// variations (fingerprint case and SHA-1, absent IV, absent mode), under two live keys.
    /// Their card is the tenant's (a Luhn-valid number, 12/30), so every one must open, find the
    /// card and be approved: a payload that did not open would be `CRYPTOGRAPHY_ERROR`, a card
    /// read wrong `INVAL_CARD`.
    @Test(arguments: TestEngine.available)
    func theWholeEncryptionMatrixIsApproved(_ engine: TestEngine) async throws {
        let vectors = try MDESFixtureVectors.load()
        var matrix: Set<String> = []
        for mode in ["GCM", "CBC"] {
            for wrap in ["OAEP-SHA256", "OAEP-SHA512", "PKCS1v15"] {
                for bits in [128, 256] { matrix.insert("\(mode)-\(wrap)-AES\(bits)") }
            }
        }
        #expect(matrix.isSubset(of: Set(vectors.cases.map(\.name))), "the fixture lacks part of the matrix")
        try await MDESListenerHarness.run(engine) { mdes in
            for fixtureKey in vectors.keys {
                try await MDESFixtureVectors.install(
                    fixtureKey.privateKeyPKCS8PEM, tenantID: mdes.tenantID, server: mdes.server)
            }
            for (index, vector) in vectors.cases.enumerated() {
                let reference = "DWSPMCVECTOR\(index)"
                let answer = try await mdes.post(
                    "authorizeService",
                    try mdes.authorize(reference: reference, requestID: "vector-\(index)", payload: vector.payload))
                #expect(answer.status == 200, "\(vector.name): \(answer.text)")
                #expect(answer["decision"] == "APPROVED", "\(vector.name): \(answer.text)")
                #expect(try await mdes.token(reference)?.state == .active, "\(vector.name)")
            }
        }
    }
}
