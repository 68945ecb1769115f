import Foundation
import HTTPTypes
import Hummingbird
import ProvisioClient
import ProvisioCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The mobile client over real HTTP on loopback: what it sends, and how it reads answers that
/// are errors, malformed, or never come.
@Suite struct ProvisioClientTests {
    static let request = ApplePayPayloadRequest(certificates: [Data([1])], nonce: Data([2]), nonceSignature: Data([3]))

    @Test func serverErrorsKeepTheirStableCode() async throws {
        let server = try await LoopbackServer.serve { _ in
            jsonResponse(
                .notFound, #"{"error":{"code":"card_not_found","message":"No such card.","request_id":"req_1"}}"#,
                headers: [HTTPField.Name("X-Request-Id")!: "req_h"])
        }
        defer { server.stop() }
        let client = ProvisioMobileClient(baseURL: server.baseURL, credential: .provisionToken("prv_pt_x"))
        let error = await #expect(throws: ProvisioClientError.self) {
            _ = try await client.applePayPayload(cardID: "card_1", request: Self.request)
        }
        #expect(error?.code == ProvisioError.Code(received: "card_not_found"))
        #expect(error?.httpStatus == 404)
        #expect(error?.requestID == "req_1")
        #expect(error?.message == "No such card.")
        #expect(error?.userMessage == "This card can't be added to Apple Wallet.")

        // An answer outside 2xx that is not the error shape keeps its status and the header's id.
        let proxy = try await LoopbackServer.serve { _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/html"
            headers[HTTPField.Name("X-Request-Id")!] = "req_p"
            return Response(status: .badGateway, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "<html>")))
        }
        defer { proxy.stop() }
        let viaProxy = ProvisioMobileClient(baseURL: proxy.baseURL, credential: .mobileSession("prv_ms_x"))
        let notWire = await #expect(throws: ProvisioClientError.self) { _ = try await viaProxy.cards() }
        #expect(notWire?.code == .clientResponseInvalid && notWire?.httpStatus == 502)
        #expect(notWire?.requestID == "req_p")
    }

    @Test func aCodeNewerThanTheSDKIsKeptAsTheServerSentIt() async throws {
        // A newer server may answer a code this SDK's document does not list, or add a field to
        // the error object: the app still gets the server's code, message and request id.
        let bodies = Locked([
            #"{"error":{"code":"card_gone_fishing","message":"Newer.","request_id":"req_1"}}"#,
            #"{"error":{"code":"card_not_found","message":"No such card.","request_id":"req_2","extra":1}}"#,
            #"{"error":{"code":"","message":"Empty."}}"#,
        ])
        let server = try await LoopbackServer.serve { _ in
            jsonResponse(.notFound, bodies.withLock { $0.removeFirst() }, headers: [HTTPField.Name("X-Request-Id")!: "req_h"])
        }
        defer { server.stop() }
        let client = ProvisioMobileClient(baseURL: server.baseURL, credential: .mobileSession("prv_ms_x"))

        let newer = await #expect(throws: ProvisioClientError.self) { _ = try await client.cards() }
        #expect(newer?.code.rawValue == "card_gone_fishing" && newer?.code.isReceived == true)
        #expect(newer?.message == "Newer." && newer?.httpStatus == 404 && newer?.requestID == "req_1")
        #expect(newer?.userMessage == ProvisioClientError.tryAgain)

        let known = await #expect(throws: ProvisioClientError.self) { _ = try await client.cards() }
        #expect(known?.code == .cardNotFound && known?.requestID == "req_2")
        #expect(known?.userMessage == "This card can't be added to Apple Wallet.")

        // An empty code is no Provisio error answer.
        let empty = await #expect(throws: ProvisioClientError.self) { _ = try await client.cards() }
        #expect(empty?.code == .clientResponseInvalid && empty?.httpStatus == 404 && empty?.requestID == "req_h")
    }

    @Test func cardsComeAsWalletCardsTitledByProductElseLast4() async throws {
        let server = try await LoopbackServer.serve { _ in
            jsonResponse(
                .ok,
                #"""
                {"data":[
                {"id":"card_1","last4":"4242","network":"mastercard","cardholder_name":"Jane Appleseed",
                 "product_title":"Kit Gold","card_art_url":"https://art.example/1.png","primary_account_identifier":"pai_1"},
                {"id":"card_2","last4":"1111","network":"unknown","cardholder_name":"Jane Appleseed",
                 "primary_account_identifier":"pai_2"}]}
                """#)
        }
        defer { server.stop() }
        let cards = try await ProvisioMobileClient(baseURL: server.baseURL, credential: .mobileSession("prv_ms_x")).cards()
        #expect(
            cards == [
                WalletCard(
                    id: "card_1", primaryAccountIdentifier: "pai_1", title: "Kit Gold", last4: "4242",
                    cardholderName: "Jane Appleseed", network: .mastercard, cardArtURL: "https://art.example/1.png"),
                WalletCard(
                    id: "card_2", primaryAccountIdentifier: "pai_2", title: "Card ending in 1111", last4: "1111",
                    cardholderName: "Jane Appleseed", network: .unknown),
            ])
        #expect(cards.allSatisfy { $0.artReference == nil }, "the app names the art file when it saves the art")
    }

    @Test func theRequestCarriesBearerIdempotencyKeyAndBase64Body() async throws {
        let seen = SeenRequests()
        let server = try await LoopbackServer.serve { request in
            let body = try await request.body.collect(upTo: 64 * 1024)
            seen.append(
                SeenRequest(
                    method: request.method.rawValue, path: request.uri.path, authorization: request.headers[.authorization],
                    idempotencyKey: request.headers[HTTPField.Name("Idempotency-Key")!], body: Data(buffer: body)))
            return jsonResponse(.ok, #"{"encrypted_pass_data":"AQI=","activation_data":"Aw==","ephemeral_public_key":"BA=="}"#)
        }
        defer { server.stop() }
        let client = ProvisioMobileClient(baseURL: server.baseURL, credential: .mobileSession("prv_ms_abc"))
        let payload = try await client.applePayPayload(
            cardID: "card_1",
            request: ApplePayPayloadRequest(certificates: [Data([1, 2])], nonce: Data([3]), nonceSignature: Data([4])),
            idempotencyKey: "idem-1")
        #expect(
            payload == ApplePayPayload(encryptedPassData: Data([1, 2]), activationData: Data([3]), ephemeralPublicKey: Data([4])))
        let request = try #require(seen.values.first)
        #expect(request.method == "POST" && request.path == "/v1/mobile/cards/card_1/provisioning/apple-pay")
        #expect(request.authorization == "Bearer prv_ms_abc")
        #expect(request.idempotencyKey == "idem-1")
        let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(body["certificates"] as? [String] == ["AQI="])
        #expect(body["nonce"] as? String == "Aw==")
        #expect(body["nonce_signature"] as? String == "BA==")
        #expect(body["encryption_scheme"] as? String == "ECC_V2")
        #expect(body["device_type"] == nil)
        #expect(Set(body.keys) == ["certificates", "nonce", "nonce_signature", "encryption_scheme"])
    }

    @Test func tokenCallsSendTheDocumentedPathBodyAndKey() async throws {
        let seen = SeenRequests()
        let server = try await LoopbackServer.serve { request in
            let body = try await request.body.collect(upTo: 64 * 1024)
            seen.append(
                SeenRequest(
                    method: request.method.rawValue, path: request.uri.path, authorization: request.headers[.authorization],
                    idempotencyKey: request.headers[HTTPField.Name("Idempotency-Key")!], body: Data(buffer: body)))
            let token = #"""
                {"id":"tok_1","card_id":"card_1","card_last4":"1111","wallet":"google_pay","state":"suspended",
                 "created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:06Z"}
                """#
            return jsonResponse(.ok, request.method == .get ? #"{"data":[\#(token)]}"# : token)
        }
        defer { server.stop() }
        let client = ProvisioMobileClient(baseURL: server.baseURL, credential: .mobileSession("prv_ms_abc"))
        let listed = try await client.walletTokens()
        #expect(
            listed == [
                WalletToken(
                    id: "tok_1", cardID: "card_1", cardLast4: "1111", wallet: .googlePay, state: .suspended,
                    createdAt: Date(timeIntervalSince1970: 1_767_323_045), updatedAt: Date(timeIntervalSince1970: 1_767_323_046))
            ])
        _ = try await client.changeToken(id: "tok_1", .suspend, idempotencyKey: "idem-1")
        _ = try await client.deleteToken(id: "tok_1")
        _ = try await client.activateTokenAfterAppAuthentication(id: "tok_1")
        let requests = seen.values
        #expect(requests.map(\.method) == ["GET", "POST", "POST", "POST"])
        #expect(
            requests.map(\.path) == [
                "/v1/mobile/tokens", "/v1/mobile/tokens/tok_1/transitions", "/v1/mobile/tokens/tok_1/transitions",
                "/v1/mobile/tokens/tok_1/activation",
            ])
        #expect(requests.allSatisfy { $0.authorization == "Bearer prv_ms_abc" })
        #expect(requests.map(\.idempotencyKey) == [nil, "idem-1", nil, nil])
        let bodies = requests.dropFirst().map { try? JSONSerialization.jsonObject(with: $0.body) as? [String: String] }
        #expect(bodies == [["action": "suspend"], ["action": "delete"], ["method": "app_authentication"]])
    }

    @Test func aHangingServerTimesOut() async throws {
        let server = try await LoopbackServer.serve { _ in
            try await Task.sleep(for: .seconds(60))
            return Response(status: .ok)
        }
        defer { server.stop() }
        let client = ProvisioMobileClient(
            baseURL: server.baseURL, credential: .mobileSession("prv_ms_abc"), timeout: 0.3)
        let start = ContinuousClock.now
        let error = await #expect(throws: ProvisioClientError.self) { _ = try await client.cards() }
        #expect(error?.code == .clientTimeout)
        #expect(error?.userMessage == "Adding the card took too long. Please try again.")
        // The server hangs for 60 s; the bound is loose because the whole suite shares two
        // cores and a woken task can wait seconds for a thread.
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func nothingListeningIsATransportFailure() async throws {
        // The discard port: nothing listens on loopback there.
        let client = ProvisioMobileClient(baseURL: URL(string: "http://127.0.0.1:9")!, credential: .mobileSession("t"))
        let error = await #expect(throws: ProvisioClientError.self) { _ = try await client.cards() }
        #expect(error?.code == .clientTransportFailed, "\(String(describing: error))")
        #expect(error?.httpStatus == nil)
    }

    @Test func malformedAnswersAndBadIDsAreRefused() async throws {
        let answers = Locked([
            #"{"encrypted_pass_data":"AQI=","activation_data":"Aw=="}"#,  // neither key field
            #"{"encrypted_pass_data":"AQI=","activation_data":"Aw==","ephemeral_public_key":"BA==","extra":1}"#,
            #"{"encrypted_pass_data":"not base64!","activation_data":"Aw==","ephemeral_public_key":"BA=="}"#,
            #"{"data":[{"id":"card_1"}]}"#,
        ])
        let server = try await LoopbackServer.serve { _ in
            jsonResponse(.ok, answers.withLock { $0.removeFirst() })
        }
        defer { server.stop() }
        let client = ProvisioMobileClient(baseURL: server.baseURL, credential: .mobileSession("t"))
        let request = ApplePayPayloadRequest(certificates: [], nonce: Data(), nonceSignature: Data())
        for answer in 0..<3 {
            let refused = await #expect(throws: ProvisioClientError.self) {
                _ = try await client.applePayPayload(cardID: "card_1", request: request)
            }
            #expect(refused?.code == .clientResponseInvalid, "answer \(answer)")
        }
        let badList = await #expect(throws: ProvisioClientError.self) { _ = try await client.cards() }
        #expect(badList?.code == .clientResponseInvalid)

        let badID = await #expect(throws: ProvisioClientError.self) {
            _ = try await client.applePayPayload(cardID: "../v1/cards", request: request)
        }
        #expect(badID?.code == .clientRequestInvalid)
        #expect(!ProvisioCredential.mobileSession("secret").description.contains("secret"))
    }
}

struct SeenRequest: Sendable {
    var method: String
    var path: String
    var authorization: String?
    var idempotencyKey: String?
    var body: Data
}

/// What the loopback server saw.
final class SeenRequests: Sendable {
    private let stored = Locked<[SeenRequest]>([])
    func append(_ request: SeenRequest) { stored.withLock { $0.append(request) } }
    var values: [SeenRequest] { stored.value }
}
