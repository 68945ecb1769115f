import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

/// Bad input gets `{"responseId", "errorCode", "errorDescription"}`, never a 5xx and never a
/// decision; `requestId` is unique per tenant across restarts and servers; and no PAN, payload
/// or code reaches a log, an answer or the database.
@Suite struct MDESBadInputTests {
    @Test(arguments: TestEngine.available)
    func badInputIsRefusedInTheDocumentsShape(_ engine: TestEngine) async throws {
        let vectors = try MDESFixtureVectors.load()
        try await MDESListenerHarness.run(engine) { mdes in
            var refusals: [(String, MDESListenerHarness.Answer, String)] = []
            func refuse(
                _ name: String, _ body: [String: Any], code: String, operation: String = "authorizeService", tenant: String? = nil
            ) async throws {
                refusals.append((name, try await mdes.post(operation, body, tenant: tenant), code))
            }
            // A tampered tag, an unknown fingerprint, an expired or too distant payload.
            var tampered = try mdes.encrypt(mdes.cardPlaintext())
            let tag = tampered["tag"] as! String
            tampered["tag"] = (tag.first == "0" ? "1" : "0") + tag.dropFirst()
            try await refuse(
                "tampered tag", try mdes.authorize(reference: "BAD-1", payload: tampered), code: "CRYPTOGRAPHY_ERROR")
            let unknown = try mdes.encrypt(mdes.cardPlaintext(), fingerprint: String(repeating: "ab", count: 32))
            try await refuse(
                "unknown fingerprint", try mdes.authorize(reference: "BAD-2", payload: unknown), code: "CRYPTOGRAPHY_ERROR")
            let expired = try mdes.encrypt(mdes.cardPlaintext(validFor: -1))
            try await refuse("expired", try mdes.authorize(reference: "BAD-3", payload: expired), code: "INVALID_FIELD_VALUE")
            let distant = try mdes.encrypt(mdes.cardPlaintext(validFor: 31 * 24 * 3600))
            try await refuse("distant", try mdes.authorize(reference: "BAD-4", payload: distant), code: "INVALID_FIELD_VALUE")
            // Missing and malformed fields.
            var missing = try mdes.authorize(reference: "BAD-5")
            missing["correlationId"] = nil
            try await refuse("missing correlationId", missing, code: "MISSING_REQUIRED_FIELD")
            var noReference = try mdes.authorize(reference: "BAD-6")
            noReference["fundingAccountInfo"] = ["encryptedPayload": try mdes.encrypt(mdes.cardPlaintext())]
            try await refuse("no tokenUniqueReference", noReference, code: "MISSING_REQUIRED_FIELD")
            var wrongType = try mdes.authorize(reference: "BAD-7")
            wrongType["services"] = "DIGITIZATION"
            try await refuse("services not a list", wrongType, code: "INVALID_FIELD_FORMAT")
            var panAsReference = try mdes.authorize(reference: MDESListenerHarness.pan)
            panAsReference["requestId"] = "pan-ref"
            try await refuse("a PAN as reference", panAsReference, code: "INVALID_FIELD_VALUE")
            try await refuse(
                "unknown tenant", try mdes.authorize(reference: "BAD-8"), code: "INVALID_FIELD_VALUE", tenant: "ten_nobody")
            try await refuse(
                "transit", ["requestId": "transit-1", "fundingAccountInfo": [:]], code: "UNSUPPORTED_OPERATION",
                operation: "getAccountInformation")
            // The fixture's bad payloads: every one a refusal.
            for (index, bad) in vectors.bad.enumerated() where bad.name != "wrong-fingerprint" {
                let answer = try await mdes.post(
                    "authorizeService", try mdes.authorize(reference: "BADV-\(index)", payload: bad.payload))
                #expect(answer.status == 400, "\(bad.name): \(answer.text)")
                #expect(
                    ["CRYPTOGRAPHY_ERROR", "INVALID_FIELD_FORMAT", "INVALID_FIELD_LENGTH"].contains(answer.errorCode ?? ""),
                    "\(bad.name): \(answer.text)"
                )
            }

            for (name, answer, code) in refusals {
                #expect(answer.status == 400, "\(name): \(answer.text)")
                #expect(answer.errorCode == code, "\(name): \(answer.text)")
                #expect(answer.json.keys.sorted() == ["errorCode", "errorDescription", "responseId"], "\(name)")
                #expect(answer.json["decision"] == nil)
            }
            for reference in ["BAD-1", "BAD-2", "BAD-3", "BAD-4", "BAD-5", "BAD-6", "BAD-7", "BAD-8"] {
                #expect(try await mdes.token(reference) == nil, "no decision recorded for \(reference)")
            }

            // Bytes the generated client could not send: not JSON, a key twice, too large.
            let notJSON = try await mdes.post("authorizeService", bytes: Data("{\"requestId\": ".utf8))
            #expect(notJSON.status == 400 && notJSON.errorCode == "INVALID_JSON", "\(notJSON.text)")
            let twice = try await mdes.post("authorizeService", bytes: Data(#"{"requestId":"a","requestId":"b"}"#.utf8))
            #expect(twice.status == 400 && twice.errorCode == "INVALID_JSON", "\(twice.text)")
            let large = try await mdes.post(
                "authorizeService",
                bytes: Data(("{\"requestId\":\"big\",\"x\":\"" + String(repeating: "a", count: 400_000) + "\"}").utf8))
            #expect(large.status == 413 && large.errorCode == "INVALID_FIELD_LENGTH", "\(large.text.prefix(200))")

            // Unknown optional fields, anywhere, are accepted.
            var extended = try mdes.authorize(reference: "OK-EXTRA", requestID: "extra-1")
            extended["someFutureField"] = ["nested": true]
            var device = extended["deviceInfo"] as! [String: Any]
            device["formFactor"] = "HOLOGRAM"
            extended["deviceInfo"] = device
            let accepted = try await mdes.post("authorizeService", extended)
            #expect(accepted.status == 200 && accepted["decision"] == "APPROVED", "\(accepted.text)")
        }
    }

    /// The same `requestId` and body replays the first answer, on another server of the database
    /// and after a restart; another body under it is refused and decides nothing.
    @Test(arguments: TestEngine.available)
    func requestIdsAreUniquePerTenantAcrossServers(_ engine: TestEngine) async throws {
        try await MDESListenerHarness.run(engine) { mdes in
            let body = try mdes.authorize(reference: "TUR-DEDUPE", requestID: "req-once")
            let bytes = try JSONSerialization.data(withJSONObject: body)
            let first = try await mdes.post("authorizeService", bytes: bytes)
            #expect(first["decision"] == "APPROVED")
            // A second listener on the same database: another server, or this one restarted.
            try await MDESListenerHarness.withListener(mdes.server) { otherPort in
                let again = try await mdes.post("authorizeService", bytes: bytes, port: otherPort)
                #expect(again.status == 200 && again.text == first.text, "\(again.text)")
                var other = body
                other["fundingAccountInfo"] = [
                    "tokenUniqueReference": "TUR-DEDUPE-2", "encryptedPayload": try mdes.encrypt(mdes.cardPlaintext()),
                ]
                let reused = try await mdes.post("authorizeService", other, port: otherPort)
                #expect(reused.status == 400 && reused.errorCode == "INVALID_FIELD_VALUE", "\(reused.text)")
                #expect(reused["responseId"] == "req-once")
                #expect(try await mdes.token("TUR-DEDUPE-2") == nil)
                // The same requestId with the same body for another operation is another request.
                let otherOperation = try await mdes.post("requestActivationMethods", bytes: bytes, port: otherPort)
                #expect(otherOperation.errorCode == "INVALID_FIELD_VALUE")
            }
            // Another tenant has its own requestIds.
            let (otherTenant, otherKey) = try await mdes.server.makeTenant("Other Bank")
            _ = otherKey
            let elsewhere = try await mdes.post("authorizeService", bytes: bytes, tenant: otherTenant)
            #expect(elsewhere.errorCode == "CRYPTOGRAPHY_ERROR", "no key there, but not a reused requestId: \(elsewhere.text)")
            // Nothing of the request rests in clear.
            let rows = try await mdes.server.services.handle.read { database in
                try await database.raw("SELECT request_key, answer FROM mdes_exchanges").all().map {
                    (
                        try $0.decode(column: "request_key", as: String.self),
                        try $0.decode(column: "answer", as: String?.self) ?? ""
                    )
                }
            }
            #expect(!rows.isEmpty && rows.allSatisfy { !$0.0.contains("req-once") && !$0.1.contains("req-once") })
        }
    }

    @Test func noPANPayloadOrCodeInTheLogsOrTheDatabase() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        let (files, logs) = try await MDESListenerHarness.runCapturing { mdes in
            _ = try await mdes.server.api(mdes.apiKey).createWebhookEndpoint(
                body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
            ).created
            receiver.setAnswer(#"{"channels":[{"type":"sms","masked":"******4821"}]}"#)
            _ = try await mdes.post("authorizeService", try mdes.authorize(reference: "TUR-SCAN-1"))
            let payload = try mdes.encrypt(mdes.cardPlaintext())
            _ = try await mdes.post(
                "authorizeService",
                try mdes.authorize(reference: "TUR-SCAN-2", payload: payload, recommendation: "REQUIRE_ADDITIONAL_AUTHENTICATION")
            )
            _ = try await MDESActivationTests.deliver(mdes, "TUR-SCAN-2", code: "864209")
            _ = try await MDESActivationTests.validate(mdes, "TUR-SCAN-2", "864209")
            var tampered = payload
            tampered["encryptedData"] = "00" + (payload["encryptedData"] as! String).dropFirst(2)
            _ = try await mdes.post("authorizeService", try mdes.authorize(reference: "TUR-SCAN-3", payload: tampered))
            _ = try await mdes.post("authorizeService", try mdes.authorize(reference: MDESListenerHarness.pan))
        }
        #expect(logs.count > 1000, "the logs were captured")
        #expect(files.count > 10_000, "the database files were read")
        for secret in [MDESListenerHarness.pan, "864209"] {
            #expect(!logs.contains(secret), "\(secret.suffix(4)) in the logs")
            #expect(files.range(of: Data(secret.utf8)) == nil, "\(secret.suffix(4)) in the database files")
        }
    }
}
