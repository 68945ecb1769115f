import Crypto
import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import Testing

/// Apple Pay, Google Pay and Samsung Pay payloads: the server seals, the sandbox's keys open.
@Suite struct ProvisioningAPITests {
    @Test(arguments: TestEngine.available)
    func applePayPayloadOpensInTheSandboxForBothSchemes(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let id = try await server.makeCard(apiKey: apiKey).id
            for scheme in EncryptionScheme.allCases {
                let output = try await server.api(apiKey).provisionApplePay(
                    path: .init(id: id), body: .json(try server.applePayRequest(scheme: scheme)))
                // `ApplePayPayload` is closed: no field beyond the four it declares.
                let payload = try output.ok.body.json
                let data = try #require(Data(base64Encoded: payload.encryptedPassData))
                let plaintext: Data
                switch scheme {
                case .eccV2:
                    #expect(payload.wrappedKey == nil)
                    let key = try #require(payload.ephemeralPublicKey.flatMap { Data(base64Encoded: $0) })
                    plaintext = try server.ca.eccOpener().open(encryptedPassData: data, ephemeralPublicKey: key)
                case .rsaV2:
                    #expect(payload.ephemeralPublicKey == nil)
                    let key = try #require(payload.wrappedKey.flatMap { Data(base64Encoded: $0) })
                    plaintext = try server.ca.rsaOpener().open(encryptedPassData: data, wrappedKey: key)
                }
                let pass = try ApplePassPayload(jsonData: plaintext)
                #expect(pass.primaryAccountNumber.unmaskedDigits == "4111111111111111")
                #expect(pass.expiry.slashed == "12/30")
                #expect(pass.name.value == "Jane Appleseed")
                #expect(pass.nonce == Data([0x3F, 0x2A, 0x91, 0x07]))
                try TAVVerifier(publicKey: server.keys.tavSigningKey.publicKey).verify(
                    activationData: payload.activationData, pan: pass.primaryAccountNumber, expiry: pass.expiry,
                    at: server.clock.now())
            }
            #expect(!server.answers.all.contains { $0.text.contains("4111111111111111") })
        }
    }

    @Test(arguments: TestEngine.available)
    func chainAndInputErrorsAreRefusedAndRecorded(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let id = try await server.makeCard(apiKey: apiKey).id
            let api = server.api(apiKey)
            func provision(_ change: (inout Components.Schemas.ApplePayRequest) -> Void) async throws
                -> Operations.ProvisionApplePay.Output
            {
                var request = try server.applePayRequest()
                change(&request)
                return try await api.provisionApplePay(path: .init(id: id), body: .json(request))
            }

            let expired = try await provision { $0.certificates = ProductionChainFixture.certificates }
            #expect(expired.refused(422, .chainExpired), "\(expired)")

            server.clock.advance(by: 1)
            #expect(try await provision { $0.certificates = [] }.refusal?.code == .chainEmpty)

            server.clock.advance(by: 1)
            let badNonce = try await provision { $0.nonce = "not-binary!" }
            #expect(badNonce.refused(400, .invalidNonce), "\(badNonce)")

            // A device type outside the document's enum cannot be sent typed.
            server.clock.advance(by: 1)
            var toaster = try OpenAPIJSON(encoding: try server.applePayRequest())
            toaster["device_type"] = "toaster"
            let badDevice = try await server.raw.post("/v1/cards/\(id)/provisioning/apple-pay", token: apiKey, body: toaster)
            #expect(badDevice.error?.code == .invalidDeviceType, "\(badDevice.text)")

            server.clock.advance(by: 1)
            let badScheme = try await provision { $0.encryptionScheme = "RSA_V1" }
            #expect(badScheme.refusal?.code == .unsupportedEncryptionScheme, "\(badScheme)")

            server.clock.advance(by: 1)
            let watch = try await api.provisionApplePay(
                path: .init(id: id), body: .json(try server.applePayRequest(deviceType: .watch)))
            #expect(watch.status == 200, "\(watch)")

            let rows = try await api.listProvisioningAttempts(path: .init(id: id)).ok.body.json.data
            // The device-type refusal happens before an attempt exists; the others are recorded.
            #expect(
                rows.map(\.errorCode) == ["chain_expired", "chain_empty", "invalid_nonce", "unsupported_encryption_scheme", nil])
            #expect(rows.map(\.outcome) == [.failed, .failed, .failed, .failed, .succeeded])
            #expect(rows.last?.deviceType == .watch)
            #expect(rows.allSatisfy { $0.wallet == .applePay })
            #expect(!server.answers.all.contains { $0.text.contains("4111111111111111") })
        }
    }

    @Test(arguments: TestEngine.available)
    func googleAndSamsungPayGetJWEToTheNetworkKey(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let id = try await server.makeCard(apiKey: apiKey, pan: "5555555555554444").id
            let request = Components.Schemas.PushProvisioningRequest(
                userAddress: .init(
                    name: "Jane Appleseed", address1: "1 Infinite Loop", locality: "Cupertino", administrativeArea: "CA",
                    countryCode: "us", postalCode: "95014"))
            let google = try await api.provisionGooglePay(path: .init(id: id), body: .json(request)).ok.body.json
            #expect(google.displayName == "Mastercard •••• 4444")
            #expect(google.lastDigits == "4444")
            #expect(google.network == .mastercard)
            #expect(google.tokenServiceProvider == .tokenProviderMastercard)
            #expect(google.userAddress.countryCode == "US" && google.userAddress.locality == "Cupertino")
            // Samsung Pay's answer has its own shape: the same JWE, in base64.
            let samsung = try await api.provisionSamsungPay(path: .init(id: id), body: .json(.init())).ok.body.json
            #expect(samsung.displayName == "Mastercard •••• 4444" && samsung.lastDigits == "4444")
            #expect(samsung.tokenizationProvider == .mc && samsung.cardType == .creditDebit)
            let samsungJWE = String(decoding: try #require(Data(base64Encoded: samsung.provisionPayload)), as: UTF8.self)
            for (wallet, jwe) in [(Components.Schemas.Wallet.googlePay, google.opaquePaymentCard), (.samsungPay, samsungJWE)] {
                #expect(jwe.split(separator: ".", omittingEmptySubsequences: false).count == 5)
                let opened = try JWEDecrypter(privateKey: server.networkKey).decrypt(jwe)
                #expect(opened.algorithm == "ECDH-ES" && opened.encryption == "A256GCM" && opened.keyID == "net-test")
                let card = try JSONDecoder().decode(OpaqueCard.self, from: opened.plaintext)
                #expect(card.fpan == "5555555555554444")
                #expect(card.wallet == wallet.rawValue)
                #expect(card.cardID == id)
            }
            #expect(!server.answers.all.contains { $0.text.contains("5555555555554444") })
            // Without an address the cardholder's name stands in.
            let bare = try await api.provisionGooglePay(path: .init(id: id), body: .json(.init())).ok.body.json
            #expect(bare.userAddress == .init(name: "Jane Appleseed"))
            let badAddress = try await api.provisionGooglePay(
                path: .init(id: id), body: .json(.init(userAddress: .init(name: "J", countryCode: "USA"))))
            #expect(badAddress.refused(400, .invalidParameter), "\(badAddress)")
        }
    }

    @Test(arguments: TestEngine.available)
    func pushProvisioningNeedsAKnownNetwork(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            // A Luhn-valid number outside every known range.
            let id = try await server.makeCard(apiKey: apiKey, pan: "9999999999999995").id
            let output = try await server.api(apiKey).provisionGooglePay(path: .init(id: id), body: .json(.init()))
            #expect(output.refused(422, .unsupportedNetwork), "\(output)")
        }
    }

    /// The card data inside the opaque payment card, which only the network can read.
    private struct OpaqueCard: Decodable {
        let fpan: String
        let wallet: String
        let cardID: String

        enum CodingKeys: String, CodingKey {
            case fpan, wallet
            case cardID = "card_id"
        }
    }
}

/// The real 2018 Apple chain (expired today), as shipped in shared/fixtures.
enum ProductionChainFixture {
    private struct File: Decodable {
        let certificatesDERBase64: [String]
    }

    static let certificates: [String] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ProvisioCryptoTests/Fixtures/apple-production-chain-2018.json")
        return try! JSONDecoder().decode(File.self, from: Data(contentsOf: url)).certificatesDERBase64
    }()
}
