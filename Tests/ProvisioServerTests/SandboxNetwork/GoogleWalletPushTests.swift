import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import Testing

/// Google Wallet's legacy push provisioning end to end: Provisio builds the push data, the
/// issuer's app hands it to `pushTokenize`, the sandbox network opens the opaque payment card,
/// asks Provisio to decide and installs the token in Google Wallet.
@Suite struct GoogleWalletPushTests {
    @Test(arguments: TestEngine.available)
    func greenIsActiveInGoogleWalletAndAtProvisio(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let google = SandboxGoogleWallet(tokenService: h.network)
                let push = try await h.googlePushData()
                let result = try await h.pushTokenize(push, into: google)

                #expect(result.resultCode == GooglePushTokenizeResult.resultOK)
                #expect(result.tokenState == .active)
                let tsp = try #require(GoogleTokenServiceProvider(constantName: push.tokenServiceProvider.rawValue))
                #expect(tsp == .visa)
                #expect(
                    try await google.getTokenStatus(tokenServiceProvider: tsp, issuerTokenID: result.issuerTokenID) == .active)
                #expect(await google.isTokenized(lastDigits: "1111", network: .visa, tokenServiceProvider: .visa))
                #expect(!(await google.isTokenized(lastDigits: "1111", network: .mastercard, tokenServiceProvider: .mastercard)))
                let listed = await google.listTokens()
                #expect(listed.map(\.issuerTokenID) == [result.issuerTokenID])
                #expect(listed.first?.fpanLastFour == "1111" && listed.first?.displayName == push.displayName)
                // Another TSP's id for the token is not found.
                let notFound = await networkError {
                    try await google.getTokenStatus(tokenServiceProvider: .mastercard, issuerTokenID: result.issuerTokenID)
                }
                #expect(notFound?.code == .sandboxGoogleTokenNotFound)

                // The network's token lives in Google Wallet on the Android phone.
                let networkToken = try #require(await h.network.allTokens().first)
                #expect(networkToken.wallet == .googlePay && networkToken.device == google.phone)
                #expect(networkToken.state == .active && networkToken.issuerTokenID == result.issuerTokenID)
                #expect(await h.wallet.passes().isEmpty, "nothing went to Apple Wallet")

                // Provisio decided for Google Pay on a phone.
                let token = try await server.api(h.apiKey).getToken(path: .init(id: result.issuerTokenID)).ok.body.json
                #expect(token.wallet == .googlePay)
                #expect(token.deviceType == .phone)
                #expect(token.state == .active)
                #expect(token.networkTokenRef == networkToken.networkTokenRef)
                try h.expectNoPAN(result: result, google: google)

                // The network's changes reach Google Wallet through the same boundary as Apple's.
                let ref = networkToken.networkTokenRef
                try await h.network.applyIssuerAction(.suspend, networkTokenRef: ref)
                #expect(try await h.state(in: google, result) == .suspended)
                try await h.network.applyIssuerAction(.resume, networkTokenRef: ref)
                #expect(try await h.state(in: google, result) == .active)
                try await h.network.applyIssuerAction(.delete, networkTokenRef: ref)
                #expect(await google.listTokens().isEmpty, "a deleted token is absent: TapAndPay has no deleted state")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func yellowNeedsIdentityVerification(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                let google = SandboxGoogleWallet(tokenService: h.network)
                let push = try await h.googlePushData()
                let result = try await h.pushTokenize(push, into: google)

                #expect(result.resultCode == GooglePushTokenizeResult.resultOK)
                #expect(result.tokenState == .needsIdentityVerification)
                #expect(
                    try await h.state(in: google, result)
                        == .needsIdentityVerification)
                #expect(await google.isTokenized(lastDigits: "1111", network: .visa, tokenServiceProvider: .visa))
                let networkToken = try #require(await h.network.allTokens().first)
                #expect(networkToken.state == .pendingActivation && networkToken.wallet == .googlePay)
                let token = try await server.api(h.apiKey).getToken(path: .init(id: result.issuerTokenID)).ok.body.json
                #expect(token.wallet == .googlePay && token.decision == .requireVerification)
                try h.expectNoPAN(result: result, google: google)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func redIsDeclined(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .red) { h in
                let google = SandboxGoogleWallet(tokenService: h.network)
                let push = try await h.googlePushData()
                let refused = await networkError { try await h.pushTokenize(push, into: google) }
                #expect(refused?.code == .sandboxGoogleTokenizationDeclined)
                #expect(refused?.message.contains("15022") == true)
                #expect(await google.listTokens().isEmpty)
                #expect(!(await google.isTokenized(lastDigits: "1111", network: .visa, tokenServiceProvider: .visa)))
                let networkToken = try #require(await h.network.allTokens().first)
                #expect(networkToken.state == .declined && networkToken.wallet == .googlePay)
            }
        }
    }

    /// A card changed on the way, one sealed to another network's key, or one built for
    /// another wallet is refused before Provisio is asked: no token anywhere.
    @Test(arguments: TestEngine.available)
    func opcTheNetworkCannotOpenIsRefused(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let google = SandboxGoogleWallet(tokenService: h.network)
                let push = try await h.googlePushData()

                var tampered = push
                tampered.opaquePaymentCard = SandboxOPCKeyTests.tampered(push.opaquePaymentCard)
                // Provisio's card JSON, sealed to a key that is not this network's.
                let card =
                    #"{"fpan":"4111111111111111","expiry_month":12,"expiry_year":2030,"cardholder_name":"Jane Doe","#
                    + #""wallet":"google_pay","card_id":"\#(h.cardID)","issued_at":"2026-01-01T00:00:00Z"}"#
                let otherNetwork = try JWEEncrypter(recipient: SandboxOPCKey().publicKey).encrypt(
                    Data(card.utf8), contentType: "application/json")
                var foreign = push
                foreign.opaquePaymentCard = otherNetwork
                let samsungData = try await server.api(h.apiKey).provisionSamsungPay(
                    path: .init(id: h.cardID), body: .json(.init())
                ).ok.body.json
                var samsung = push
                samsung.opaquePaymentCard = String(
                    decoding: try #require(Data(base64Encoded: samsungData.provisionPayload)), as: UTF8.self)

                for (bad, inner) in [
                    (tampered, "sandbox_opc_unreadable"), (foreign, "sandbox_opc_unreadable"),
                    (samsung, "sandbox_opc_invalid"),
                ] {
                    let refused = await networkError { try await h.pushTokenize(bad, into: google) }
                    #expect(refused?.code == .sandboxGoogleTokenizeError)
                    #expect(refused?.message.contains("15024") == true && refused?.message.contains(inner) == true)
                }
                #expect(await google.listTokens().isEmpty)
                #expect(await h.network.allTokens().isEmpty)
                #expect(try await h.issuerTokens().isEmpty, "Provisio was never asked")
            }
        }
    }
}

extension SandboxNetworkHarness {
    /// What the issuer's backend gets for the app: `POST /v1/cards/{id}/provisioning/google-pay`.
    func googlePushData() async throws -> Components.Schemas.WalletPushData {
        let push = try await server.api(apiKey).provisionGooglePay(
            path: .init(id: cardID), body: .json(.init(userAddress: .init(name: "Jane Appleseed", countryCode: "US")))
        ).ok.body.json
        #expect(!push.opaquePaymentCard.contains(Self.pan))
        return push
    }

    /// What the issuer's app does with it: TapAndPay's constants for the names, the OPC's UTF-8
    /// bytes, and `pushTokenize`.
    func pushTokenize(_ push: Components.Schemas.WalletPushData, into google: SandboxGoogleWallet) async throws
        -> GooglePushTokenizeResult
    {
        try await google.pushTokenize(
            opc: Data(push.opaquePaymentCard.utf8), network: try #require(GoogleCardNetwork(name: push.network.rawValue)),
            tokenServiceProvider: try #require(GoogleTokenServiceProvider(constantName: push.tokenServiceProvider.rawValue)),
            displayName: push.displayName, lastDigits: push.lastDigits,
            address: GoogleUserAddress(name: push.userAddress.name, countryCode: push.userAddress.countryCode))
    }

    /// `getTokenStatus` for the token a push made, under the TSP Provisio names for the card.
    func state(in google: SandboxGoogleWallet, _ result: GooglePushTokenizeResult) async throws -> GoogleTokenState {
        try await google.getTokenStatus(tokenServiceProvider: .visa, issuerTokenID: result.issuerTokenID)
    }

    /// No card number in what Google Wallet or Provisio answered, nor in any log line.
    func expectNoPAN(result: GooglePushTokenizeResult, google: SandboxGoogleWallet) throws {
        #expect(!"\(result)".contains(Self.pan))
        for answer in server.answers.all { #expect(!answer.text.contains(Self.pan), "PAN in \(answer.operationID)") }
        #expect(!server.logs.text.contains(Self.pan), "PAN in the logs")
    }
}
