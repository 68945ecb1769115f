import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import Testing

/// Apple Pay, Google Pay and Samsung Pay payloads: the server seals, the sandbox's keys open.
@Suite struct ProvisioningAPITests {
    @Test(arguments: TestEngine.available)
    func applePayPayloadOpensInTheSandboxForBothSchemes(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let id = try await server.makeCard(apiKey: apiKey)["id"] as! String
            for scheme in EncryptionScheme.allCases {
                let response = try await server.client.post(
                    "/v1/cards/\(id)/provisioning/apple-pay", token: apiKey, json: try server.applePayBody(scheme: scheme))
                #expect(response.status == 200, "\(response.text)")
                let json = try #require(response.json as? [String: String])
                let data = try #require(Data(base64Encoded: json["encrypted_pass_data"] ?? ""))
                let plaintext: Data
                switch scheme {
                case .eccV2:
                    #expect(Set(json.keys) == ["encrypted_pass_data", "activation_data", "ephemeral_public_key"])
                    plaintext = try server.ca.eccOpener().open(
                        encryptedPassData: data, ephemeralPublicKey: Data(base64Encoded: json["ephemeral_public_key"]!)!)
                case .rsaV2:
                    #expect(Set(json.keys) == ["encrypted_pass_data", "activation_data", "wrapped_key"])
                    plaintext = try server.ca.rsaOpener().open(
                        encryptedPassData: data, wrappedKey: Data(base64Encoded: json["wrapped_key"]!)!)
                }
                let payload = try ApplePassPayload(jsonData: plaintext)
                #expect(payload.primaryAccountNumber.unmaskedDigits == "4111111111111111")
                #expect(payload.expiry.slashed == "12/30")
                #expect(payload.name.value == "Jane Appleseed")
                #expect(payload.nonce == Data([0x3F, 0x2A, 0x91, 0x07]))
                try TAVVerifier(publicKey: server.keys.tavSigningKey.publicKey).verify(
                    activationData: json["activation_data"]!, pan: payload.primaryAccountNumber, expiry: payload.expiry,
                    at: server.clock.now())
                #expect(!response.text.contains("4111111111111111"))
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func chainAndInputErrorsAreRefusedAndRecorded(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let id = try await server.makeCard(apiKey: apiKey)["id"] as! String
            let path = "/v1/cards/\(id)/provisioning/apple-pay"

            var expired = try server.applePayBody()
            expired["certificates"] = ProductionChainFixture.certificates
            let expiredResponse = try await server.client.post(path, token: apiKey, json: expired)
            #expect(expiredResponse.status == 422 && expiredResponse.errorCode == "chain_expired")

            server.clock.advance(by: 1)
            var empty = try server.applePayBody()
            empty["certificates"] = [String]()
            #expect(try await server.client.post(path, token: apiKey, json: empty).errorCode == "chain_empty")

            server.clock.advance(by: 1)
            var badNonce = try server.applePayBody()
            badNonce["nonce"] = "not-binary!"
            let nonceResponse = try await server.client.post(path, token: apiKey, json: badNonce)
            #expect(nonceResponse.status == 400 && nonceResponse.errorCode == "invalid_nonce")

            server.clock.advance(by: 1)
            var badDevice = try server.applePayBody()
            badDevice["device_type"] = "toaster"
            #expect(try await server.client.post(path, token: apiKey, json: badDevice).errorCode == "invalid_device_type")

            server.clock.advance(by: 1)
            var badScheme = try server.applePayBody()
            badScheme["encryption_scheme"] = "RSA_V1"
            #expect(
                try await server.client.post(path, token: apiKey, json: badScheme).errorCode == "unsupported_encryption_scheme")

            server.clock.advance(by: 1)
            let watch = try await server.client.post(path, token: apiKey, json: try server.applePayBody(deviceType: "watch"))
            #expect(watch.status == 200)

            let attempts = try await server.client.get("/v1/cards/\(id)/provisioning-attempts", token: apiKey)
            #expect(attempts.status == 200)
            let rows = try #require(attempts.json?["data"] as? [[String: Any]])
            // The device-type refusal happens before an attempt exists; the others are recorded.
            #expect(
                rows.map { $0["error_code"] as? String } == [
                    "chain_expired", "chain_empty", "invalid_nonce", "unsupported_encryption_scheme", nil,
                ])
            #expect(rows.map { $0["outcome"] as? String } == ["failed", "failed", "failed", "failed", "succeeded"])
            #expect(rows.last?["device_type"] as? String == "watch")
            #expect(rows.allSatisfy { $0["wallet"] as? String == "apple_pay" })
            #expect(!attempts.text.contains("4111111111111111"))
        }
    }

    @Test(arguments: TestEngine.available)
    func googleAndSamsungPayGetJWEToTheNetworkKey(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let id = try await server.makeCard(apiKey: apiKey, pan: "5555555555554444")["id"] as! String
            for (path, wallet) in [("google-pay", "google_pay"), ("samsung-pay", "samsung_pay")] {
                let response = try await server.client.post(
                    "/v1/cards/\(id)/provisioning/\(path)", token: apiKey,
                    json: [
                        "user_address": [
                            "name": "Jane Appleseed", "address1": "1 Infinite Loop", "locality": "Cupertino",
                            "administrative_area": "CA", "country_code": "us", "postal_code": "95014",
                        ]
                    ])
                #expect(response.status == 200, "\(response.text)")
                let json = try #require(response.json)
                #expect(json["display_name"] as? String == "Mastercard •••• 4444")
                #expect(json["last_digits"] as? String == "4444")
                #expect(json["network"] as? String == "MASTERCARD")
                #expect(json["token_service_provider"] as? String == "TOKEN_PROVIDER_MASTERCARD")
                let address = try #require(json["user_address"] as? [String: String])
                #expect(address["country_code"] == "US" && address["locality"] == "Cupertino")

                let jwe = try #require(json["opaque_payment_card"] as? String)
                #expect(jwe.split(separator: ".", omittingEmptySubsequences: false).count == 5)
                let opened = try JWEDecrypter(privateKey: server.networkKey).decrypt(jwe)
                #expect(opened.algorithm == "ECDH-ES" && opened.encryption == "A256GCM" && opened.keyID == "net-test")
                let card = try #require(try JSONSerialization.jsonObject(with: opened.plaintext) as? [String: Any])
                #expect(card["fpan"] as? String == "5555555555554444")
                #expect(card["wallet"] as? String == wallet)
                #expect(card["card_id"] as? String == id)
                #expect(!response.text.contains("5555555555554444"))
            }
            // Without an address the cardholder's name stands in.
            let bare = try await server.client.post(
                "/v1/cards/\(id)/provisioning/google-pay", token: apiKey, json: [String: Any]())
            #expect((bare.json?["user_address"] as? [String: String]) == ["name": "Jane Appleseed"])
            let badAddress = try await server.client.post(
                "/v1/cards/\(id)/provisioning/google-pay", token: apiKey,
                json: ["user_address": ["name": "J", "country_code": "USA"]])
            #expect(badAddress.status == 400 && badAddress.errorCode == "invalid_parameter")
        }
    }

    @Test(arguments: TestEngine.available)
    func pushProvisioningNeedsAKnownNetwork(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            // A Luhn-valid number outside every known range.
            let id = try await server.makeCard(apiKey: apiKey, pan: "9999999999999995")["id"] as! String
            let response = try await server.client.post(
                "/v1/cards/\(id)/provisioning/google-pay", token: apiKey, json: [String: Any]())
            #expect(response.status == 422 && response.errorCode == "unsupported_network")
        }
    }
}

/// The real 2018 Apple chain (expired today), as shipped in shared/fixtures.
enum ProductionChainFixture {
    static let certificates: [String] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ProvisioCryptoTests/Fixtures/apple-production-chain-2018.json")
        let object = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        return object["certificatesDERBase64"] as! [String]
    }()
}
