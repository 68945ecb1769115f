import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioOpenPGP
import ProvisioSandbox
import Testing

/// The TSP OPC of a UPP answer is still the one the card network takes: pushed into the
/// sandbox's Google Wallet, the sandbox network opens it, Provisio decides, and the token is
/// active, while the Google OPC beside it opens for Google.
@Suite struct GooglePayNetworkTests {
    @Test(arguments: TestEngine.available)
    func theUPPAnswersTSPOPCProvisionsThroughTheSandboxNetwork(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                let google = try await GooglePayTestKeys.shared()
                let issuer = try await api.setGooglePaySettings(
                    body: .json(.init(googleEncryptionKeys: [google.first.publicKey.armored]))
                ).ok.body.json.issuerSigningKey
                let push = try await api.provisionGooglePay(
                    path: .init(id: h.cardID),
                    body: .json(
                        .init(
                            userAddress: .init(name: "Jane Appleseed", countryCode: "US"),
                            credentialsRequest: .init(serverSessionId: "net-session", walletId: "w-1")))
                ).ok.body.json
                let opened = try GoogleOpaquePaymentCard.open(
                    try #require(push.googleOpaquePaymentCard), googleKeys: [google.first],
                    issuers: [try OpenPGPPublicKey(Data(issuer.armored.utf8))], serverSessionID: "net-session",
                    at: server.clock.now())
                #expect(opened.accountNumber == SandboxNetworkHarness.pan)

                let wallet = SandboxGoogleWallet(tokenService: h.network)
                let result = try await h.pushTokenize(push, into: wallet)
                #expect(result.resultCode == GooglePushTokenizeResult.resultOK)
                #expect(result.tokenState == .active)
                let token = try await h.issuerToken(result.issuerTokenID)
                #expect(token.wallet == .googlePay && token.state == .active)
                try h.expectNoPAN(result: result, google: wallet)
            }
        }
    }
}
