import Foundation
import ProvisioClient
import ProvisioCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers from a closure (or never).
struct ScriptedTransport: ProvisioHTTPTransport {
    let answer: @Sendable (URLRequest) async throws -> ProvisioHTTPResponse
    func send(_ request: URLRequest) async throws -> ProvisioHTTPResponse { try await answer(request) }
}

@Suite struct ProvisioClientTests {
    let base = URL(string: "https://provisio.test")!

    @Test func serverErrorsKeepTheirStableCode() async throws {
        let transport = ScriptedTransport { _ in
            ProvisioHTTPResponse(
                status: 404, headers: ["x-request-id": "req_h"],
                body: Data(#"{"error":{"code":"card_not_found","message":"No such card.","request_id":"req_1"}}"#.utf8))
        }
        let client = ProvisioMobileClient(baseURL: base, credential: .provisionToken("prv_pt_x"), transport: transport)
        let error = await #expect(throws: ProvisioClientError.self) {
            _ = try await client.applePayPayload(
                cardID: "card_1",
                request: ApplePayPayloadRequest(certificates: [Data([1])], nonce: Data([2]), nonceSignature: Data([3])))
        }
        #expect(error?.code == "card_not_found")
        #expect(error?.httpStatus == 404)
        #expect(error?.requestID == "req_1")
    }

    @Test func theRequestCarriesBearerIdempotencyKeyAndBase64Body() async throws {
        let seen = Box()
        let transport = ScriptedTransport { request in
            seen.set(request)
            return ProvisioHTTPResponse(
                status: 200, headers: [:],
                body: Data(#"{"encrypted_pass_data":"AQI=","activation_data":"Aw==","ephemeral_public_key":"BA=="}"#.utf8))
        }
        let client = ProvisioMobileClient(baseURL: base, credential: .mobileSession("prv_ms_abc"), transport: transport)
        let payload = try await client.applePayPayload(
            cardID: "card_1",
            request: ApplePayPayloadRequest(certificates: [Data([1, 2])], nonce: Data([3]), nonceSignature: Data([4])),
            idempotencyKey: "idem-1")
        #expect(
            payload == ApplePayPayload(encryptedPassData: Data([1, 2]), activationData: Data([3]), ephemeralPublicKey: Data([4])))
        let request = try #require(seen.value)
        #expect(request.url?.path == "/v1/mobile/cards/card_1/provisioning/apple-pay")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer prv_ms_abc")
        #expect(request.value(forHTTPHeaderField: "Idempotency-Key") == "idem-1")
        let body = try #require(try JSONSerialization.jsonObject(with: request.httpBody ?? Data()) as? [String: Any])
        #expect(body["certificates"] as? [String] == ["AQI="])
        #expect(body["nonce"] as? String == "Aw==")
        #expect(body["nonce_signature"] as? String == "BA==")
        #expect(body["encryption_scheme"] as? String == "ECC_V2")
        #expect(body["device_type"] == nil)
    }

    @Test func aHangingServerTimesOut() async throws {
        let transport = ScriptedTransport { _ in
            try await Task.sleep(for: .seconds(60))
            return ProvisioHTTPResponse(status: 200, headers: [:], body: Data())
        }
        let client = ProvisioMobileClient(
            baseURL: base, credential: .mobileSession("prv_ms_abc"), transport: transport, timeout: .milliseconds(100))
        let start = ContinuousClock.now
        let error = await #expect(throws: ProvisioClientError.self) { _ = try await client.cards() }
        #expect(error?.code == ProvisioClientError.timeoutCode)
        // The transport hangs for 60 s; the bound is loose because the whole suite shares two
        // cores and a woken task can wait seconds for a thread.
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func malformedAnswersAndBadIDsAreRefused() async throws {
        let transport = ScriptedTransport { _ in
            ProvisioHTTPResponse(
                status: 200, headers: [:], body: Data(#"{"encrypted_pass_data":"AQI=","activation_data":"Aw=="}"#.utf8))
        }
        let client = ProvisioMobileClient(baseURL: base, credential: .mobileSession("t"), transport: transport)
        let request = ApplePayPayloadRequest(certificates: [], nonce: Data(), nonceSignature: Data())
        let missingKey = await #expect(throws: ProvisioClientError.self) {
            _ = try await client.applePayPayload(cardID: "card_1", request: request)
        }
        #expect(missingKey?.code == ProvisioClientError.responseInvalidCode)
        let badID = await #expect(throws: ProvisioClientError.self) {
            _ = try await client.applePayPayload(cardID: "../v1/cards", request: request)
        }
        #expect(badID?.code == ProvisioClientError.requestInvalidCode)
        #expect(!ProvisioCredential.mobileSession("secret").description.contains("secret"))
    }
}

final class Box: @unchecked Sendable {
    // @unchecked: `stored` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var stored: URLRequest?
    func set(_ request: URLRequest) {
        lock.lock()
        stored = request
        lock.unlock()
    }
    var value: URLRequest? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
