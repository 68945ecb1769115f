import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// Samsung Pay's own answer on both routes: the provider per network, the card type, and the
/// network's JWE in standard base64, which the sandbox network opens as a Samsung Pay card.
@Suite struct SamsungPayPushTests {
    @Test(arguments: TestEngine.available)
    func eachNetworkGetsItsProviderAndABase64JWE(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let network = SandboxOPCKey(privateKey: server.networkKey)
            let cards: [(String, String?, Components.Schemas.SamsungPayPushData.TokenizationProviderPayload, String)] = [
                ("4111111111111111", nil, .vi, "Visa •••• 1111"),
                ("5555555555554444", nil, .mc, "Mastercard •••• 4444"),
                ("6759649826438453", "maestro", .mc, "Maestro •••• 8453"),
                ("378282246310005", nil, .ax, "American Express •••• 0005"),
                ("6011111111111117", nil, .ds, "Discover •••• 1117"),
            ]
            for (pan, name, provider, display) in cards {
                let card = try await server.makeCard(apiKey: apiKey, pan: pan, network: name)
                let data = try await api.provisionSamsungPay(
                    path: .init(id: card.id), body: .json(.init(deviceId: "R58N12ABCDE", walletUserId: "wu-7 A"))
                ).ok.body.json
                #expect(data.tokenizationProvider == provider, "\(display)")
                #expect(data.cardType == .creditDebit)
                #expect(data.displayName == display && data.lastDigits == String(pan.suffix(4)))
                // Standard base64, padded: what the SDK decodes for Mastercard.
                let bytes = try #require(Data(base64Encoded: data.provisionPayload))
                #expect(!data.provisionPayload.contains("-") && !data.provisionPayload.contains("_"))
                let opened = try network.open(String(decoding: bytes, as: UTF8.self))
                #expect(opened.wallet == .samsungPay && opened.cardID == card.id)
                #expect(opened.primaryAccountNumber.unmaskedDigits == pan)
                #expect(!data.provisionPayload.contains(pan))
            }
            // Networks Samsung names no provider for: refused, and recorded as a failed attempt.
            for name in ["jcb", "unionpay"] {
                let card = try await server.makeCard(apiKey: apiKey, network: name)
                let refused = try await api.provisionSamsungPay(path: .init(id: card.id), body: .json(.init()))
                #expect(refused.refused(422, .unsupportedNetwork), "\(name): \(refused)")
                let attempts = try await api.listProvisioningAttempts(path: .init(id: card.id)).ok.body.json.data
                #expect(attempts.map(\.errorCode) == ["unsupported_network"] && attempts.first?.wallet == .samsungPay)
            }
            for pan in cards.map(\.0) {
                for answer in server.answers.all { #expect(!answer.text.contains(pan), "PAN in \(answer.operationID)") }
                #expect(!server.logs.text.contains(pan))
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func walletInfoIsCheckedAndTheMobileRouteAnswersTheSame(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let card = try await server.makeCard(apiKey: apiKey, pan: "5555555555554444")
            let longest = String(repeating: "d", count: SamsungPayWalletIDs.maximumLength)
            _ = try await api.provisionSamsungPay(
                path: .init(id: card.id), body: .json(.init(deviceId: longest, walletUserId: longest))
            ).ok
            for bad in [
                Components.Schemas.SamsungPayRequest(deviceId: longest + "d"), .init(deviceId: ""),
                .init(walletUserId: String(repeating: "w", count: 129)), .init(walletUserId: "é"),
            ] {
                let refused = try await api.provisionSamsungPay(path: .init(id: card.id), body: .json(bad))
                #expect(refused.refused(400, .invalidParameter), "\(bad): \(refused)")
            }
            // Samsung's request is not Google's.
            let google = try await server.raw.send(
                .post, "/v1/cards/\(card.id)/provisioning/samsung-pay", token: apiKey,
                body: Data(#"{"user_address": {"name": "Jane"}}"#.utf8))
            #expect(google.refused(400, .unknownField), "\(google.text)")

            let token = try await MobileAPITests.provisionToken(server, apiKey: apiKey, card: card.id, wallet: .samsungPay)
            let app = server.api(token)
            let data = try await app.provisionSamsungPayFromMobile(
                path: .init(id: card.id), body: .json(.init(deviceId: "R58N12ABCDE"))
            ).ok.body.json
            #expect(data.tokenizationProvider == .mc && data.cardType == .creditDebit && data.lastDigits == "4444")
            let opened = try SandboxOPCKey(privateKey: server.networkKey).open(
                String(decoding: try #require(Data(base64Encoded: data.provisionPayload)), as: UTF8.self))
            #expect(opened.wallet == .samsungPay)
            let spent = try await app.provisionSamsungPayFromMobile(path: .init(id: card.id), body: .json(.init()))
            #expect(spent.refused(409, .tokenAlreadyUsed), "\(spent)")
            let googleToken = try await MobileAPITests.provisionToken(server, apiKey: apiKey, card: card.id, wallet: .googlePay)
            let wrongWallet = try await server.api(googleToken).provisionSamsungPayFromMobile(
                path: .init(id: card.id), body: .json(.init()))
            #expect(wrongWallet.refused(403, .tokenScopeMismatch), "\(wrongWallet)")
            for answer in server.answers.all { #expect(!answer.text.contains("5555555555554444")) }
        }
    }
}
