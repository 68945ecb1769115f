import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioOpenPGP
import ProvisioSandbox
import Testing

/// Google Wallet's Unified Push Provisioning end to end: Google opens a session, the issuer's
/// app asks its backend (Provisio's TSP OPC, and a Google OPC signed with the issuer's key and
/// encrypted to Google's), Google opens the Google OPC with its own key and hands the TSP OPC to
/// the sandbox network, which asks Provisio to decide.
@Suite struct GoogleWalletUPPTests {
    @Test(arguments: TestEngine.available)
    func greenIsActiveAtGoogleAndAtProvisioAndTheCardIsSaved(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let google = try await h.googleWallet(keys)
                let result = try await h.pushUPP(into: google, ProvisioCredentialsGenerator(harness: h))

                #expect(result.resultCode == GooglePushTokenizeResult.resultOK)
                #expect(result.tokenState == .active && result.cardResult && !result.isBounceProvisioned)
                #expect(
                    try await google.getTokenStatus(tokenServiceProvider: .visa, issuerTokenID: result.issuerTokenID) == .active)
                let listed = await google.listTokens()
                #expect(listed.map(\.issuerTokenID) == [result.issuerTokenID])
                #expect(listed.first?.fpanLastFour == "1111" && listed.first?.isBounceProvisioned == false)
                let saved = await google.cardsOnFile()
                #expect(saved.count == 1 && saved.first?.fpanLastFour == "1111")
                #expect(saved.first?.expiryMonth == 12 && saved.first?.expiryYear == 30)
                #expect(await google.openSessions().isEmpty, "the session is used up")

                let networkToken = try #require(await h.network.allTokens().first)
                #expect(networkToken.wallet == .googlePay && networkToken.device == google.phone)
                #expect(networkToken.device.kind == .androidPhone && networkToken.state == .active)
                let token = try await server.api(h.apiKey).getToken(path: .init(id: result.issuerTokenID)).ok.body.json
                #expect(token.wallet == .googlePay && token.deviceType == .phone && token.state == .active)
                #expect(token.networkTokenRef == networkToken.networkTokenRef)

                // The issuer suspends and resumes at Provisio: through the network to Google Wallet.
                let api = server.api(h.apiKey)
                let suspended = try await api.transitionToken(
                    path: .init(id: result.issuerTokenID), body: .json(.init(action: .suspend))
                ).ok.body.json
                #expect(suspended.state == .suspended)
                #expect(try await h.state(in: google, result) == .suspended)
                _ = try await api.transitionToken(path: .init(id: result.issuerTokenID), body: .json(.init(action: .resume))).ok
                #expect(try await h.state(in: google, result) == .active)
                #expect(await h.network.allTokens().first?.state == .active)

                try h.expectNoPAN(result: result, google: google)
                await h.expectNoPANInGoogle(google, [result])
            }
        }
    }

    /// The two steps the sandbox's HTTP API drives: the request Google makes, then the answer.
    @Test(arguments: TestEngine.available)
    func twoStepsAndASessionServesOnePush(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let google = try await h.googleWallet(keys)
                let session = try await h.beginUPP(into: google)
                let request = session.credentialsRequest
                #expect(request.stableHardwareID == google.stableHardwareID && request.walletID == google.activeWalletID)
                #expect(request.tokenRequestorID == SandboxGoogleWallet.tokenRequestorID)
                #expect(request.googleOpaquePaymentCardRequested && !request.auxiliaryOpaquePaymentCardRequested)
                #expect(session.expiresAt == server.clock.now().addingTimeInterval(SandboxGoogleWallet.sessionLifetime))
                #expect(await google.openSessions() == [session])

                let credentials = try await ProvisioCredentialsGenerator(harness: h).generate(request)
                let result = try await google.completePushTokenize(session: session.id, credentials: credentials)
                #expect(result.tokenState == .active && result.cardResult)

                // Once only: the same answer again finds no session.
                let again = await networkError {
                    try await google.completePushTokenize(session: session.id, credentials: credentials)
                }
                #expect(again?.code == .sandboxGoogleSessionUnknown)
                let unknown = await networkError {
                    try await google.completePushTokenize(session: "sbx_gss_nope", credentials: credentials)
                }
                #expect(unknown?.code == .sandboxGoogleSessionUnknown)
                #expect(await google.listTokens().count == 1)
                #expect(await h.network.allTokens().count == 1)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func bounceProvisioningMarksTheToken(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let google = try await h.googleWallet(keys)
                let generator = ProvisioCredentialsGenerator(harness: h)
                // Marked bounce-provisioned, but Google Wallet started nothing.
                let unstarted = await networkError { try await h.pushUPP(into: google, generator, isBounceProvisioned: true) }
                #expect(unstarted?.code == .sandboxGoogleBounceUnknown)

                // The cardholder picks the card in Google Wallet; it starts the issuer's app.
                let intent = await google.beginBounceProvisioning()
                #expect(intent.action == "com.google.android.gms.tapandpay.issuer.ACTION_INITIATE_PROVISIONING")
                #expect(intent.packageName == SandboxGoogleWallet.defaultIssuerAppPackage)
                let result = try await h.pushUPP(into: google, generator, isBounceProvisioned: true)
                #expect(result.isBounceProvisioned && result.tokenState == .active && result.cardResult)
                #expect(await google.listTokens().first?.isBounceProvisioned == true)
                #expect(try await h.issuerToken(result.issuerTokenID).wallet == .googlePay)

                // The bounce is answered once; one not answered in time is gone.
                let twice = await networkError { try await h.pushUPP(into: google, generator, isBounceProvisioned: true) }
                #expect(twice?.code == .sandboxGoogleBounceUnknown)
                _ = await google.beginBounceProvisioning()
                server.clock.advance(by: SandboxGoogleWallet.sessionLifetime)
                let late = await networkError { try await h.pushUPP(into: google, generator, isBounceProvisioned: true) }
                #expect(late?.code == .sandboxGoogleBounceUnknown)
                #expect(await google.listTokens().count == 1)
            }
        }
    }

    /// Each way the Google OPC fails is refused with its own code, before the TSP or Provisio
    /// sees anything; the TSP refusing the TSP OPC is TapAndPay's 15024, and saves no card.
    @Test(arguments: TestEngine.available)
    func refusals(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let google = try await h.googleWallet(keys)
                let good = TestCredentialsGenerator(h, keys: keys)
                var missing = good
                missing.withGoogleOPC = false
                var otherGoogle = good
                otherGoogle.googleKeys = [keys.otherGoogle.publicKey]
                var stranger = good
                stranger.signer = keys.otherIssuer
                var otherSession = good
                otherSession.sessionID = "sbx_gss_another_push"

                func refusal(
                    _ generator: TestCredentialsGenerator, lastDigits: String = "1111",
                    change: @Sendable (inout GeneratedPaymentCredentials) -> Void = { _ in }
                ) async throws -> ProvisioError? {
                    let session = try await h.beginUPP(into: google, lastDigits: lastDigits)
                    var credentials = try await generator.generate(session.credentialsRequest)
                    change(&credentials)
                    return await networkError {
                        try await google.completePushTokenize(session: session.id, credentials: credentials)
                    }
                }
                let cases: [(ProvisioError?, ProvisioError.Code)] = [
                    (try await refusal(missing), .sandboxGoogleOpcMissing),
                    (
                        try await refusal(good) { $0.googleOpaquePaymentCard = Self.tampered($0.googleOpaquePaymentCard) },
                        .sandboxGoogleOpcUnreadable
                    ),
                    (
                        try await refusal(good) { $0.googleOpaquePaymentCard = Data("not*base64".utf8) },
                        .sandboxGoogleOpcUnreadable
                    ),
                    (try await refusal(otherGoogle), .sandboxGoogleOpcUnreadable),
                    (try await refusal(stranger), .sandboxGoogleOpcSignerUnknown),
                    (try await refusal(otherSession), .sandboxGoogleOpcSessionMismatch),
                    (try await refusal(good, lastDigits: "4242"), .sandboxGoogleOpcCardMismatch),
                ]
                // Provisio's own Google OPC for one push, replayed into another.
                let first = try await h.beginUPP(into: google)
                let replayed = try await ProvisioCredentialsGenerator(harness: h).generate(first.credentialsRequest)
                let other = try await h.beginUPP(into: google)
                let replay = await networkError {
                    try await google.completePushTokenize(session: other.id, credentials: replayed)
                }
                #expect(replay?.code == .sandboxGoogleOpcSessionMismatch)
                for (error, code) in cases {
                    #expect(error?.code == code)
                    #expect(error?.message.contains("15019") == true, "reported as the card save, not the device token")
                    #expect(error.map { !$0.message.contains(SandboxNetworkHarness.pan) } == true)
                }

                // A session past its lifetime.
                let session = try await h.beginUPP(into: google)
                let credentials = try await good.generate(session.credentialsRequest)
                server.clock.advance(by: SandboxGoogleWallet.sessionLifetime)
                let expired = await networkError {
                    try await google.completePushTokenize(session: session.id, credentials: credentials)
                }
                #expect(expired?.code == .sandboxGoogleSessionExpired)

                #expect(await google.listTokens().isEmpty)
                #expect(await google.cardsOnFile().isEmpty)
                #expect(await h.network.allTokens().isEmpty)
                #expect(try await h.issuerTokens().isEmpty, "Provisio was never asked")

                // The Google OPC is good; the TSP cannot open its card: the device token fails.
                let tsp = try await refusal(good) {
                    $0.opaquePaymentCard = Data(
                        SandboxOPCKeyTests.tampered(String(decoding: $0.opaquePaymentCard, as: UTF8.self)).utf8)
                }
                #expect(tsp?.code == .sandboxGoogleTokenizeError && tsp?.message.contains("15024") == true)
                #expect(await google.listTokens().isEmpty)
                #expect(await google.cardsOnFile().isEmpty)
                await h.expectNoPANInGoogle(google)
            }
        }
    }

    /// Every limit: open sessions, their lifetime, the size of an OPC, the issuer's keys; and a
    /// wallet without a Google key takes no UPP push.
    @Test func limits() async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(.sqlite) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let google = try await h.googleWallet(keys)
                var open: [GooglePushTokenizeSession] = []
                for _ in 0..<SandboxGoogleWallet.maximumOpenSessions { open.append(try await h.beginUPP(into: google)) }
                let full = await networkError { try await h.beginUPP(into: google) }
                #expect(full?.code == .sandboxGoogleSessionLimit)
                server.clock.advance(by: SandboxGoogleWallet.sessionLifetime)
                #expect(await google.openSessions().isEmpty, "expired sessions no longer count")
                let session = try await h.beginUPP(into: google)

                let huge = GeneratedPaymentCredentials(
                    opaquePaymentCard: Data(repeating: 0x41, count: SandboxGoogleWallet.maximumOPCBytes + 1),
                    googleOpaquePaymentCard: Data("x".utf8))
                let tooLong = await networkError { try await google.completePushTokenize(session: session.id, credentials: huge) }
                #expect(tooLong?.code == .sandboxGoogleRequestInvalid)
                let hugeGoogle = GeneratedPaymentCredentials(
                    opaquePaymentCard: Data("x".utf8),
                    googleOpaquePaymentCard: Data(repeating: 0x41, count: GoogleOpaquePaymentCard.maximumOPCLength + 4))
                let second = try await h.beginUPP(into: google)
                let tooLongGoogle = await networkError {
                    try await google.completePushTokenize(session: second.id, credentials: hugeGoogle)
                }
                #expect(tooLongGoogle?.code == .sandboxGoogleOpcUnreadable)

                // A key registered again counts once; past the limit, refused.
                let registered = await google.issuerKeyFingerprints()
                #expect(registered.count == 2 && registered.last == keys.issuer.fingerprint, "Provisio's and the test's")
                try await google.registerIssuerKey(keys.issuer.publicKey)
                #expect(await google.issuerKeyFingerprints() == registered)
                let created = server.clock.now().addingTimeInterval(-3600)
                for index in registered.count..<SandboxGoogleWallet.maximumIssuerKeys {
                    let key = try await offThePool {
                        try OpenPGPSecretKey.generateRSA(userID: "key \(index)", bits: 2048, creationTime: created)
                    }
                    try await google.registerIssuerKey(key.publicKey)
                }
                let extra = try await offThePool {
                    try OpenPGPSecretKey.generateRSA(userID: "one too many", bits: 2048, creationTime: created)
                }
                let tooMany = await networkError { try await google.registerIssuerKey(extra.publicKey) }
                #expect(tooMany?.code == .sandboxGoogleRequestInvalid)
                #expect(await google.issuerKeyFingerprints().count == SandboxGoogleWallet.maximumIssuerKeys)

                let legacyOnly = SandboxGoogleWallet(tokenService: h.network)
                let noKey = await networkError { try await h.beginUPP(into: legacyOnly) }
                #expect(noKey?.code == .sandboxGoogleKeyInvalid)
            }
        }
    }

    /// The bytes with one base64 character in the middle changed.
    static func tampered(_ data: Data?) -> Data? {
        guard var bytes = data, !bytes.isEmpty else { return data }
        let middle = bytes.startIndex + bytes.count / 2
        bytes[middle] = bytes[middle] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        return bytes
    }
}
