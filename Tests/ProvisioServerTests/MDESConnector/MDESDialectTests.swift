import Crypto
import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioNetworkConnector
import Testing
import _CryptoExtras

@testable import ProvisioServer

/// The MDES dialect (issue 23, item 2): a tenant sets MDES's Customer Service API as its network,
/// and the issuer's suspend, resume, delete and customer-service activation reach MDES signed
/// with OAuth 1.0a, as Provisio's document of the API describes them. The stand-in MDES verifies
/// every request with `OAuth1Verifier` and checks every body against the document.
@Suite struct MDESDialectTests {
    /// One key for the run (RSA key generation is slow in debug builds).
    static let signingKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let consumerKey = "mdes-consumer-key!0123456789abcdef"
    /// MDES token references are 48 to 64 characters.
    static func reference(_ suffix: String) -> String {
        "DWSPMC00000000" + String(repeating: "0", count: 34 - suffix.count) + suffix
    }

    static var fingerprint: String {
        BinaryText.lowercaseHex(SHA256.hash(data: signingKey.publicKey.derRepresentation))
    }

    static func mdesSettings(url: String, pem: String = signingKey.pemRepresentation)
        -> Components.Schemas.NetworkSettingsRequest
    {
        .init(dialect: .mdes, customerServiceUrl: url, oauthConsumerKey: consumerKey, oauthSigningKeyPem: pem)
    }

    static func withStandIn<T: Sendable>(_ body: @Sendable (MDESStandIn) async throws -> T) async throws -> T {
        let standIn = MDESStandIn(consumerKey: consumerKey, publicKey: signingKey.publicKey)
        try await standIn.start()
        defer { standIn.stop() }
        return try await body(standIn)
    }

    // MARK: Settings

    @Test(arguments: TestEngine.available)
    func theSigningKeyIsSealedAndOnlyItsFingerprintComesBack(_ engine: TestEngine) async throws {
        let pem = Self.signingKey.pemRepresentation
        // The key's base64 lines: none may appear anywhere but sealed.
        let keyLines = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        try await TestServer.run(engine, outbound: OutboundRequestForgeryTests.guarded(allowLoopback: true)) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let url = "http://127.0.0.1:9/mdes/csapi"
            let set = try await api.setNetworkSettings(body: .json(Self.mdesSettings(url: url))).ok.body.json
            #expect(set.source == .tenant && set.dialect == .mdes && set.customerServiceUrl == url && set.url == nil)
            #expect(set.oauthConsumerKey == Self.consumerKey && set.oauthSigningKeySet == true)
            #expect(set.oauthSigningKeyFingerprint == Self.fingerprint)
            let read = try await api.getNetworkSettings().ok.body.json
            #expect(read == set)

            let row = try await server.services.handle.read { database in
                try await database.raw(
                    """
                    SELECT network_dialect AS dialect, network_api_key_vault_record AS api_key,
                        network_oauth_signing_key_vault_record AS sealed FROM tenant_settings
                    """
                ).first()
            }
            let sealed = try #require(try row?.decode(column: "sealed", as: String?.self))
            #expect(sealed.hasPrefix("pv1.") && !keyLines.contains { sealed.contains($0) })
            #expect(try row?.decode(column: "dialect", as: String?.self) == "mdes")
            #expect(try row?.decode(column: "api_key", as: String?.self) == nil)
            let endpoint = try #require(try await server.services.tokens.connectors.endpoint(tenantID: tenantID))
            #expect(endpoint.0.dialect == .mdes && endpoint.0.oauth?.signingKey.publicKeyFingerprint == Self.fingerprint)

            // Back to the Provisio dialect: nothing of MDES's stays.
            let provisio = try await api.setNetworkSettings(
                body: .json(.init(url: "http://127.0.0.1:9/net", apiKey: "prv_connector_key_1"))
            ).ok.body.json
            #expect(provisio.dialect == .provisio && provisio.oauthSigningKeySet == nil && provisio.customerServiceUrl == nil)
            let cleared = try await server.services.handle.read { database in
                try await database.raw("SELECT network_oauth_signing_key_vault_record AS sealed FROM tenant_settings").first()
                    .map { try $0.decode(column: "sealed", as: String?.self) }
            }
            #expect(cleared == .some(nil))
            _ = try await api.setNetworkSettings(body: .json(Self.mdesSettings(url: url))).ok

            for line in keyLines {
                #expect(!server.answers.all.contains { $0.text.contains(line) }, "the signing key in an answer")
                #expect(!server.logs.text.contains(line), "the signing key in the logs")
            }
            if case .sqlite(let path) = server.database {
                var files = Data()
                for suffix in ["", "-wal", "-shm"] {
                    files.append((try? Data(contentsOf: URL(fileURLWithPath: path + suffix))) ?? Data())
                }
                #expect(files.count > 10_000, "the database files were read")
                for line in keyLines {
                    #expect(files.range(of: Data(line.utf8)) == nil, "the signing key in the SQLite files")
                }
                #expect(files.range(of: Self.signingKey.derRepresentation.prefix(64)) == nil)
            }
        }
    }

    @Test func badMDESSettingsAreRefusedWithStableCodes() async throws {
        let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).pemRepresentation
        let ecKey = P256.Signing.PrivateKey().pemRepresentation
        let good = Self.signingKey.pemRepresentation
        try await TestServer.run(.sqlite, outbound: OutboundRequestForgeryTests.guarded()) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let url = "http://mdes.example.test/mdes/csapi"
            let cases: [(Components.Schemas.NetworkSettingsRequest, Components.Schemas.ErrorCode)] = [
                (Self.mdesSettings(url: url, pem: "not a key"), .oauthSigningKeyInvalid),
                (Self.mdesSettings(url: url, pem: small), .oauthSigningKeyInvalid),
                (Self.mdesSettings(url: url, pem: ecKey), .oauthSigningKeyInvalid),
                (Self.mdesSettings(url: url, pem: String(good.dropLast(80))), .oauthSigningKeyInvalid),
                // Line breaks are the one control character the key may hold.
                (Self.mdesSettings(url: url, pem: good + "\u{7}"), .invalidRequest),
                (Self.mdesSettings(url: url, pem: good.replacingOccurrences(of: "\n", with: "\r")), .invalidRequest),
                (Self.mdesSettings(url: url + "\n"), .invalidRequest),
                (Self.mdesSettings(url: "ftp://mdes.example.test/csapi"), .outboundUrlInvalid),
                (Self.mdesSettings(url: "http://127.0.0.1:9/mdes/csapi"), .outboundAddressRefused),
                (Self.mdesSettings(url: "http://localhost/mdes/csapi"), .outboundAddressRefused),
                (Self.mdesSettings(url: "http://10.1.2.3/mdes/csapi"), .outboundAddressRefused),
                (Self.mdesSettings(url: "http://user:pass@mdes.example.test/"), .outboundUrlHasCredentials),
                (Self.mdesSettings(url: "http://mdes.example.test/csapi?x=1"), .invalidParameter),
                (Self.mdesSettings(url: "http://mdes.example.test/4111111111111111"), .cardNumberInText),
                (.init(dialect: .mdes, customerServiceUrl: url, oauthSigningKeyPem: good), .invalidParameter),
                (
                    .init(dialect: .mdes, customerServiceUrl: url, oauthConsumerKey: "a b", oauthSigningKeyPem: good),
                    .invalidParameter
                ),
                (.init(url: url, apiKey: "prv_connector_key_1", dialect: .mdes), .invalidParameter),
                (.init(url: url, apiKey: "prv_connector_key_1", oauthConsumerKey: Self.consumerKey), .invalidParameter),
                (.init(dialect: .provisio), .invalidParameter),
            ]
            for (body, code) in cases {
                let refused = try await api.setNetworkSettings(body: .json(body))
                #expect(refused.refused(400, code), "\(code): \(refused)")
            }
            // A refusal never repeats the key.
            let keyLine = try #require(good.split(separator: "\n").dropFirst().first.map(String.init))
            #expect(!server.answers.all.contains { $0.text.contains(keyLine) || $0.text.contains("not a key") })
            #expect(try await api.getNetworkSettings().ok.body.json.source == .none)
        }
    }

    // MARK: The issuer's changes at MDES

    @Test(arguments: TestEngine.available)
    func issuerChangesReachMDESSignedAndAsDocumented(_ engine: TestEngine) async throws {
        try await Self.withStandIn { mdes in
            try await TestServer.run(engine, outbound: OutboundRequestForgeryTests.guarded(allowLoopback: true)) { server in
                let (tenantID, apiKey) = try await server.makeTenant()
                let api = server.api(apiKey)
                _ = try await api.setNetworkSettings(body: .json(Self.mdesSettings(url: mdes.url))).ok
                let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
                _ = try await server.makeCard(apiKey: apiKey)
                let green = Self.reference("green")
                let tokenID = try await TokenAPITests.decide(
                    server, networkKey: networkKey, TokenAPITests.networkTokenRequest(ref: green)
                ).ok.body.json.tokenId

                let suspended = try await TokenAPITests.transition(
                    server, apiKey: apiKey, tokenID, .suspend, reason: "device_lost"
                )
                .ok.body.json
                #expect(suspended.state == .suspended && suspended.networkState == "suspended")
                let resumed = try await TokenAPITests.transition(server, apiKey: apiKey, tokenID, .resume, reason: "device_found")
                    .ok.body.json
                #expect(resumed.state == .active && resumed.networkState == "active")
                let deleted = try await TokenAPITests.transition(
                    server, apiKey: apiKey, tokenID, .delete, reason: "customer_request"
                ).ok.body.json
                #expect(deleted.state == .deleted && deleted.networkState == "deleted")

                // Customer-service activation of a yellow token.
                let yellow = Self.reference("yellow")
                let pending = try await TokenAPITests.decide(
                    server, networkKey: networkKey,
                    TokenAPITests.networkTokenRequest(ref: yellow, recommendation: .requireVerification)
                ).ok.body.json
                #expect(pending.decision == .requireVerification, "\(pending)")
                let pendingID = pending.tokenId
                let activated = try await api.activateToken(
                    path: .init(id: pendingID), body: .json(.init(mode: .customerService, reasonCode: "agent_verified"))
                ).ok.body.json
                #expect(activated.state == .active)
                // In-app authentication of another, by the cardholder's own app.
                let byApp = Self.reference("app")
                let appPending = try await TokenAPITests.decide(
                    server, networkKey: networkKey,
                    TokenAPITests.networkTokenRequest(ref: byApp, recommendation: .requireVerification)
                ).ok.body.json
                let session = try await api.createMobileSession(body: .json(.init(customerRef: "cust_1"))).created.body.json
                    .token
                let appActivated = try await server.api(session).activateMobileToken(
                    path: .init(id: appPending.tokenId), body: .json(.init(method: .appAuthentication))
                ).ok.body.json
                #expect(appActivated.state == .active)

                let requests = mdes.requests
                #expect(
                    requests.map(\.path)
                        == ["token/suspend", "token/unsuspend", "search", "token/delete", "token/activate", "token/activate"]
                        .map {
                            "/mdes/csapi/v2/\($0)"
                        })
                for request in requests {
                    #expect(request.problems.isEmpty, "\(request.path): \(request.problems)")
                    #expect(request.verifiedConsumerKey == Self.consumerKey)
                }
                func field(_ index: Int, _ message: String, _ name: String) -> String? {
                    requests[index].body[message]?[name]?.stringValue
                }
                #expect(field(0, "TokenSuspendRequest", "TokenUniqueReference") == green)
                #expect(field(0, "TokenSuspendRequest", "ReasonCode") == "L")
                #expect(field(0, "TokenSuspendRequest", "CommentText") == "Provisio: suspend (device_lost)")
                #expect(field(1, "TokenUnsuspendRequest", "ReasonCode") == "F")
                #expect(field(3, "TokenDeleteRequest", "ReasonCode") == "D")
                #expect(field(3, "TokenDeleteRequest", "DeleteFromConsumerApp") == "false")
                #expect(field(4, "TokenActivateRequest", "TokenUniqueReference") == yellow)
                #expect(field(4, "TokenActivateRequest", "ReasonCode") == "C")
                // MDES's `A`: the cardholder authenticated with an activation method, the issuer's app.
                #expect(field(5, "TokenActivateRequest", "TokenUniqueReference") == byApp)
                #expect(field(5, "TokenActivateRequest", "ReasonCode") == "A")
                // AuditInfo names the API key that acted and the tenant.
                let audit = try #require(requests[0].body["TokenSuspendRequest"]?["AuditInfo"])
                #expect(audit["UserName"]?.stringValue == "Provisio API key")
                #expect(audit["UserId"]?.stringValue?.isEmpty == false && audit["UserId"]?.stringValue != "api_key")
                #expect(audit["Organization"]?.stringValue == "Provisio tenant \(tenantID)")

                // MDES refuses: nothing changes, and MDES's prose is not repeated.
                let other = Self.reference("refused")
                let otherID = try await TokenAPITests.decide(
                    server, networkKey: networkKey, TokenAPITests.networkTokenRequest(ref: other)
                ).ok.body.json.tokenId
                mdes.setAnswer(
                    .raw(
                        status: 400,
                        body:
                            #"{"Errors":{"Error":[{"Source":"INPUT","ReasonCode":"INVALID_TOKEN","Description":"SECRET-PROSE"}]}}"#
                    ))
                let refused = try await TokenAPITests.transition(server, apiKey: apiKey, otherID, .suspend)
                #expect(refused.refused(409, .networkRefused), "\(refused)")
                #expect(refused.refusal?.error.message.contains("INVALID_TOKEN") == true)
                #expect(!server.answers.all.contains { $0.text.contains("SECRET-PROSE") })
                mdes.setAnswer(.raw(status: 503, body: "{}"))
                let down = try await TokenAPITests.transition(server, apiKey: apiKey, otherID, .suspend)
                #expect(down.refused(502, .networkUnavailable), "\(down)")
                let still = try await api.getToken(path: .init(id: otherID)).ok.body.json
                #expect(still.state == .active)
            }
        }
    }

    // MARK: The connector alone, over the guarded transport

    static func connector(
        _ url: String, key: _RSA.Signing.PrivateKey = signingKey, consumerKey: String = consumerKey,
        clock: TestClock = TestClock(), nonce: (@Sendable () -> String)? = nil
    ) -> MDESDialectConnector {
        MDESDialectConnector(
            customerServiceURL: url, signer: OAuth1Signer(consumerKey: consumerKey, signingKey: key),
            auditInfo: MDESAuditInfo(userID: "op", userName: "Jo", organization: "Acme Bank"),
            transport: OutboundTransport(
                client: OutboundRequestForgeryTests.guarded(allowLoopback: true), timeout: .seconds(5),
                maximumAnswerBytes: MDESDialectConnector.maximumAnswerBytes),
            clock: clock, makeNonce: nonce ?? OAuth1Signer.makeNonce)
    }

    static func code(_ call: () async throws -> NetworkCommandAnswer) async -> ProvisioError.Code? {
        do {
            _ = try await call()
            return nil
        } catch let error as ProvisioError {
            return error.code
        } catch {
            return ProvisioError.Code("unexpected")
        }
    }

    @Test func theConnectorMapsEveryKindOfMDESAnswer() async throws {
        try await Self.withStandIn { mdes in
            let ref = Self.reference("answers")
            let connector = Self.connector(mdes.url)
            let answer = try await connector.send(.suspend, networkTokenRef: ref, reasonCode: "fraud")
            #expect(answer == NetworkCommandAnswer(networkTokenRef: ref, state: "suspended"))
            #expect(mdes.requests.last?.body["TokenSuspendRequest"]?["ReasonCode"]?.stringValue == "T")
            // AuditInfo values are padded to MDES's four characters.
            let audit = mdes.requests.last?.body["TokenSuspendRequest"]?["AuditInfo"]
            #expect(audit?["UserId"]?.stringValue == "op__" && audit?["UserName"]?.stringValue == "Jo__")
            #expect(mdes.requests.allSatisfy { $0.problems.isEmpty }, "\(mdes.requests.map(\.problems))")

            // After the issuer's unsuspend, MDES's search says whether another party's suspension
            // remains.
            #expect(try await connector.send(.resume, networkTokenRef: ref, reasonCode: nil).state == "active")
            #expect(mdes.requests.last?.body["SearchRequest"]?["ExcludeDeletedIndicator"]?.stringValue == "false")
            mdes.setSearchStatus("S", suspenders: ["C"])
            #expect(try await connector.send(.resume, networkTokenRef: ref, reasonCode: nil).state == "suspended")
            mdes.setSearchStatus("A")
            #expect(mdes.requests.allSatisfy { $0.problems.isEmpty }, "\(mdes.requests.map(\.problems))")

            let kinds: [(MDESStandIn.Answer, ProvisioError.Code)] = [
                (
                    .raw(status: 401, body: #"{"Errors":{"Error":[{"Source":"Gateway","ReasonCode":"X"}]}}"#),
                    .networkCredentialsRejected
                ),
                (.raw(status: 403, body: ""), .networkCredentialsRejected),
                (
                    .raw(status: 400, body: #"{"Errors":{"Error":[{"Source":"INPUT","ReasonCode":"INVALID_TOKEN"}]}}"#),
                    .networkRefused
                ),
                (.raw(status: 404, body: "<html>not json</html>"), .networkRefused),
                (.raw(status: 500, body: "{}"), .networkUnavailable),
                (.raw(status: 503, body: ""), .networkUnavailable),
                (.raw(status: 200, body: "not json"), .networkAnswerMalformed),
                (.raw(status: 200, body: #"{"a":1,"a":2}"#), .networkAnswerMalformed),
                (
                    .raw(
                        status: 200,
                        body: #"{"TokenSuspendResponse":{"Token":{"TokenUniqueReference":"\#(Self.reference("other"))"}}}"#),
                    .networkAnswerMalformed
                ),
            ]
            for (kind, expected) in kinds {
                mdes.setAnswer(kind)
                #expect(
                    await Self.code { try await connector.send(.suspend, networkTokenRef: ref, reasonCode: nil) } == expected,
                    "\(kind)")
            }
            mdes.setAnswer(.changed)

            // What MDES's verifier refuses is Provisio's credentials: another key, another
            // consumer, a clock an hour off, a nonce used twice.
            let otherKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let late = TestClock()
            late.advance(by: 3600)
            for wrong in [
                Self.connector(mdes.url, key: otherKey), Self.connector(mdes.url, consumerKey: "someone-else"),
                Self.connector(mdes.url, clock: late),
            ] {
                #expect(
                    await Self.code { try await wrong.send(.delete, networkTokenRef: ref, reasonCode: nil) }
                        == .networkCredentialsRejected)
            }
            let fixedNonce = Self.connector(mdes.url, nonce: { "the-same-nonce" })
            #expect(await Self.code { try await fixedNonce.send(.delete, networkTokenRef: ref, reasonCode: nil) } == nil)
            #expect(
                await Self.code { try await fixedNonce.send(.delete, networkTokenRef: ref, reasonCode: nil) }
                    == .networkCredentialsRejected)
            let refusals = mdes.requests.suffix(5).map(\.problems)
            #expect(
                refusals.map { $0.first ?? "" } == [
                    "OAuth: oauth_signature_invalid", "OAuth: oauth_consumer_key_unknown", "OAuth: oauth_timestamp_out_of_window",
                    "", "OAuth: oauth_nonce_replayed",
                ])

            // Without Mastercard's certificate a reissue is refused, naming the setting, and an
            // activation other than customer service is not MDES's: both before any request.
            let before = mdes.requests.count
            let reissue = await Self.code {
                try await connector.send(
                    .updateCardDetails(CardDetails(expiry: try CardExpiry(month: 1, year: 2031))), networkTokenRef: ref,
                    reasonCode: nil)
            }
            #expect(reissue == .networkRefused)
            let message = await networkError {
                try await connector.send(
                    .updateCardDetails(CardDetails(expiry: try CardExpiry(month: 1, year: 2031))), networkTokenRef: ref,
                    reasonCode: nil)
            }?.message
            #expect(message?.contains("mastercard_encryption_certificate_pem") == true, "\(String(describing: message))")
            #expect(
                await Self.code { try await connector.send(.activate(method: "otp"), networkTokenRef: ref, reasonCode: nil) }
                    == .networkRefused)
            #expect(mdes.requests.count == before)

            // The outbound policy holds for MDES too: loopback refused without the test's allowance.
            let guarded = MDESDialectConnector(
                customerServiceURL: mdes.url, signer: OAuth1Signer(consumerKey: Self.consumerKey, signingKey: Self.signingKey),
                auditInfo: MDESAuditInfo(userID: "op", userName: "Jo", organization: "Acme Bank"),
                transport: OutboundTransport(
                    client: OutboundRequestForgeryTests.guarded(), timeout: .seconds(5), maximumAnswerBytes: 1024),
                clock: TestClock())
            #expect(
                await Self.code { try await guarded.send(.suspend, networkTokenRef: ref, reasonCode: nil) } == .networkUnavailable
            )
            #expect(mdes.requests.count == before)
        }
    }
}
