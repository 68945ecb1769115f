import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioOpenPGP
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// Unified Push Provisioning on the server: with Google's `GeneratePaymentCredentialsRequest`,
/// the Google Pay routes add a Google OPC signed with the tenant's issuer key (served by
/// `GET /v1/settings/google-pay`) and encrypted to each of the tenant's Google keys, next to the
/// TSP OPC the network still opens.
@Suite struct GooglePayUPPTests {
    static let pan = "4111111111111111"
    static let session = "srv-session-7f3a9c"

    @Test(arguments: TestEngine.available)
    func eachGoogleKeyOpensTheGoogleOPCSignedByTheServedKey(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let card = try await server.makeCard(apiKey: apiKey, pan: Self.pan)
            let google = try await GooglePayTestKeys.shared()
            // One armoured, one as base64 of its binary packets.
            let settings = try await api.setGooglePaySettings(
                body: .json(
                    .init(googleEncryptionKeys: [
                        google.first.publicKey.armored, google.second.publicKey.binary.base64EncodedString(),
                    ]))
            ).ok.body.json
            #expect(settings.googleEncryptionKeys.map(\.fingerprint) == [google.first.fingerprint, google.second.fingerprint])
            #expect(settings.googleEncryptionKeys.first?.userIds == google.first.publicKey.userIDs)
            #expect(settings.googleEncryptionKeys.allSatisfy { $0.expiresAt == nil })
            let served = settings.issuerSigningKey
            let issuer = try OpenPGPPublicKey(Data(served.armored.utf8))
            #expect(issuer.fingerprint == served.fingerprint && served.fingerprint.count == 40)
            #expect(issuer.userIDs.first?.contains("tenant") == true)
            let lifetime = try #require(served.expiresAt).timeIntervalSince(served.createdAt)
            #expect(abs(lifetime - 365 * 24 * 3600) < 2, "a year, as Google's key rules ask")
            #expect(!served.armored.contains("PRIVATE"))

            let push = try await api.provisionGooglePay(
                path: .init(id: card.id),
                body: .json(
                    .init(
                        credentialsRequest: .init(
                            serverSessionId: Self.session, stableHardwareId: "hw-1", walletId: "wallet-1",
                            tokenRequestorId: "40010030273")))
            ).ok.body.json
            let opc = try #require(push.googleOpaquePaymentCard)
            #expect(Data(base64Encoded: opc) != nil, "standard base64")
            for key in [google.first, google.second] {
                let opened = try GoogleOpaquePaymentCard.open(
                    opc, googleKeys: [key], issuers: [issuer], serverSessionID: Self.session, at: server.clock.now())
                #expect(opened.accountNumber == Self.pan && opened.serverSessionID == Self.session)
                #expect(opened.expiryMonth == 12 && opened.expiryYear == 30)
            }
            // Google refuses it in another session.
            #expect(
                openPGPCode {
                    try GoogleOpaquePaymentCard.open(
                        opc, googleKeys: [google.first], issuers: [issuer], serverSessionID: "other", at: server.clock.now())
                } == .googleOPCSessionMismatch)
            // The TSP OPC is the legacy one, for the network.
            let tsp = try SandboxOPCKey(privateKey: server.networkKey).open(push.opaquePaymentCard)
            #expect(tsp.primaryAccountNumber.unmaskedDigits == Self.pan && tsp.wallet == .googlePay && tsp.cardID == card.id)
            #expect(push.lastDigits == "1111" && push.network == .visa)

            // Without credentials_request, or when Google does not ask for its OPC: the legacy answer.
            let legacy = try await api.provisionGooglePay(path: .init(id: card.id), body: .json(.init())).ok.body.json
            #expect(legacy.googleOpaquePaymentCard == nil)
            let notAsked = try await api.provisionGooglePay(
                path: .init(id: card.id),
                body: .json(.init(credentialsRequest: .init(serverSessionId: "s", googleOpaquePaymentCardRequested: false)))
            ).ok.body.json
            #expect(notAsked.googleOpaquePaymentCard == nil)

            // Audited, without card data.
            let events = try await api.listAuditEvents(query: .init(targetType: "card", targetId: card.id)).ok.body.json.data
            let credentials = events.filter { $0.action == "provisioning.google_pay.credentials" }
            #expect(credentials.count == 1)
            #expect(credentials.first?.reason?.contains(served.fingerprint) == true)
            #expect(credentials.first?.reason?.contains(google.second.fingerprint) == true)
            Self.expectNoPAN(server)
        }
    }

    /// The mobile route with a provision token: the same Google OPC, and the token spent.
    @Test(arguments: TestEngine.available)
    func theMobileRouteAnswersTheSame(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let card = try await server.makeCard(apiKey: apiKey, pan: Self.pan)
            let google = try await GooglePayTestKeys.shared()
            let request = Components.Schemas.PushProvisioningRequest(credentialsRequest: .init(serverSessionId: Self.session))
            let token = try await MobileAPITests.provisionToken(server, apiKey: apiKey, card: card.id, wallet: .googlePay)
            let refused = try await server.api(token).provisionGooglePayFromMobile(path: .init(id: card.id), body: .json(request))
            #expect(refused.refused(409, .googlePayNotConfigured), "\(refused)")

            let settings = try await api.setGooglePaySettings(
                body: .json(.init(googleEncryptionKeys: [google.first.publicKey.armored]))
            ).ok.body.json
            let issuer = try OpenPGPPublicKey(Data(settings.issuerSigningKey.armored.utf8))
            let second = try await MobileAPITests.provisionToken(server, apiKey: apiKey, card: card.id, wallet: .googlePay)
            let push = try await server.api(second).provisionGooglePayFromMobile(path: .init(id: card.id), body: .json(request))
                .ok.body.json
            let opened = try GoogleOpaquePaymentCard.open(
                try #require(push.googleOpaquePaymentCard), googleKeys: [google.first], issuers: [issuer],
                serverSessionID: Self.session, at: server.clock.now())
            #expect(opened.accountNumber == Self.pan)
            let again = try await server.api(second).provisionGooglePayFromMobile(path: .init(id: card.id), body: .json(request))
            #expect(again.refused(409, .tokenAlreadyUsed), "\(again)")
            // A mobile session of the customer too.
            let session = try await api.createMobileSession(body: .json(.init(customerRef: "cust_1"))).created.body.json.token
            let bySession = try await server.api(session).provisionGooglePayFromMobile(
                path: .init(id: card.id), body: .json(request)
            ).ok.body.json
            #expect(bySession.googleOpaquePaymentCard != nil)
            Self.expectNoPAN(server)
        }
    }

    /// What the brief calls the session limits and the refusals before any OPC is made.
    @Test(arguments: TestEngine.available)
    func credentialsRequestsAreCheckedAndNeedGoogleKeys(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let card = try await server.makeCard(apiKey: apiKey, pan: Self.pan)
            func push(_ request: Components.Schemas.GooglePaymentCredentialsRequest) async throws
                -> Operations.ProvisionGooglePay.Output
            {
                try await api.provisionGooglePay(path: .init(id: card.id), body: .json(.init(credentialsRequest: request)))
            }
            // No Google key: 409, the legacy push still works.
            let unconfigured = try await push(.init(serverSessionId: Self.session))
            #expect(unconfigured.refused(409, .googlePayNotConfigured), "\(unconfigured)")
            _ = try await api.provisionGooglePay(path: .init(id: card.id), body: .json(.init())).ok

            let google = try await GooglePayTestKeys.shared()
            _ = try await api.setGooglePaySettings(body: .json(.init(googleEncryptionKeys: [google.first.publicKey.armored]))).ok
            let longest = String(repeating: "s", count: 512)
            let atLimit = try await push(.init(serverSessionId: longest)).ok.body.json
            #expect(atLimit.googleOpaquePaymentCard != nil)
            for bad in [
                Components.Schemas.GooglePaymentCredentialsRequest(serverSessionId: ""),
                .init(serverSessionId: longest + "s"),
                .init(serverSessionId: "with space"),
                .init(serverSessionId: "é-session"),
                .init(serverSessionId: "ok", stableHardwareId: String(repeating: "h", count: 513)),
                .init(serverSessionId: "ok", walletId: ""),
                .init(serverSessionId: "ok", tokenRequestorId: "\u{00e9}"),
            ] {
                let refused = try await push(bad)
                #expect(refused.refused(400, .invalidParameter), "\(bad): \(refused)")
            }
            // server_session_id is required inside, and nothing else is taken there.
            for body in [
                #"{"credentials_request": {}}"#,
                #"{"credentials_request": {"server_session_id": "s", "pan": "4111111111111111"}}"#,
            ] {
                let answer = try await server.raw.send(
                    .post, "/v1/cards/\(card.id)/provisioning/google-pay", token: apiKey, body: Data(body.utf8))
                #expect(
                    answer.status == 400 && ["invalid_request", "unknown_field"].contains(answer.refusalCode), "\(answer.text)")
            }
            // Refused requests are attempts on the card all the same, with their code.
            let attempts = try await api.listProvisioningAttempts(path: .init(id: card.id)).ok.body.json.data
            #expect(attempts.contains { $0.errorCode == "google_pay_not_configured" })
            Self.expectNoPAN(server)
        }
    }

    /// Google's keys are used while valid: a key past its expiry is left out, and with none
    /// left the tenant is not configured. An expired issuer key signs nothing until rotated.
    @Test(arguments: TestEngine.available)
    func expiredKeysAreNotUsed(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let card = try await server.makeCard(apiKey: apiKey, pan: Self.pan, expiryYear: 2040)
            let google = try await GooglePayTestKeys.shared()
            let shortLived = try await GooglePayTestKeys.expiring(
                created: server.clock.now().addingTimeInterval(-60), validity: 86_400)
            let request = Components.Schemas.PushProvisioningRequest(credentialsRequest: .init(serverSessionId: Self.session))
            _ = try await api.setGooglePaySettings(body: .json(.init(googleEncryptionKeys: [shortLived.publicKey.armored]))).ok
            _ = try await api.provisionGooglePay(path: .init(id: card.id), body: .json(request)).ok
            server.clock.advance(by: 2 * 86_400)
            let expired = try await api.provisionGooglePay(path: .init(id: card.id), body: .json(request))
            #expect(expired.refused(409, .googlePayNotConfigured), "\(expired)")
            // Stored keys are shown as stored, with their expiry.
            let shown = try await api.getGooglePaySettings().ok.body.json.googleEncryptionKeys
            #expect(shown.map(\.fingerprint) == [shortLived.fingerprint] && shown.first?.expiresAt != nil)

            // Beside a key that never expires, the expired one is left out.
            try await Self.setStored([shortLived.publicKey, google.first.publicKey], tenantID: tenantID, server)
            let push = try await api.provisionGooglePay(path: .init(id: card.id), body: .json(request)).ok.body.json
            let issuer = try OpenPGPPublicKey(
                Data(try await api.getGooglePaySettings().ok.body.json.issuerSigningKey.armored.utf8))
            #expect(
                openPGPCode {
                    try GoogleOpaquePaymentCard.open(
                        try #require(push.googleOpaquePaymentCard), googleKeys: [shortLived], issuers: [issuer],
                        serverSessionID: nil, at: server.clock.now())
                } == .notForRecipient)

            // A year on, the issuer key has expired: 409 until a rotation.
            server.clock.advance(by: 366 * 86_400)
            let stale = try await api.provisionGooglePay(path: .init(id: card.id), body: .json(request))
            #expect(stale.refused(409, .googlePaySigningKeyExpired), "\(stale)")
            _ = try await api.rotateGooglePaySigningKey().ok
            _ = try await api.provisionGooglePay(path: .init(id: card.id), body: .json(request)).ok
        }
    }

    /// Keys stored as if set earlier, when they were all valid (the API checks them as of now).
    static func setStored(_ keys: [OpenPGPPublicKey], tenantID: String, _ server: TestServer) async throws {
        try await SQLProvisioStore(handle: server.services.handle).replaceGoogleEncryptionKeys(
            keys.map { GoogleEncryptionKeyRecord(fingerprint: $0.fingerprint, publicKeyArmored: $0.armored, createdAt: Date()) },
            tenantID: tenantID, at: server.clock.now())
    }

    /// The PAN is in no answer and no log line.
    static func expectNoPAN(_ server: TestServer) {
        for answer in server.answers.all { #expect(!answer.text.contains(pan), "PAN in \(answer.operationID)") }
        #expect(!server.logs.text.contains(pan), "PAN in the logs")
    }
}

/// The OpenPGP code an opening fails with (nil when it opens).
func openPGPCode<T>(_ body: () throws -> T) -> OpenPGPError.Code? {
    do {
        _ = try body()
        return nil
    } catch let error as OpenPGPError {
        return error.code
    } catch {
        Issue.record("Unexpected error \(error)")
        return nil
    }
}
