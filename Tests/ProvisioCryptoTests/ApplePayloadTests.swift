import Crypto
import Foundation
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioCrypto

@Suite struct ApplePassPayloadTests {
    @Test func encodesApplesDocumentedJSON() throws {
        let payload = ApplePassPayload(
            primaryAccountNumber: Fixtures.pan, expiry: Fixtures.expiry, name: Fixtures.name,
            nonce: Data([0x3F, 0x2A, 0x91, 0x07]), nonceSignature: Data([0xAB, 0xCD]))
        let json = String(decoding: payload.jsonData(), as: UTF8.self)
        #expect(
            json
                == #"{"expiration":"12/30","name":"Jane Appleseed","nonce":"3f2a9107","nonceSignature":"abcd","primaryAccountNumber":"4111111111111111"}"#
        )
        let parsed = try ApplePassPayload(jsonData: payload.jsonData())
        #expect(parsed.primaryAccountNumber == Fixtures.pan)
        #expect(parsed.nonce == payload.nonce && parsed.nonceSignature == payload.nonceSignature)
    }

    /// The payload is written by hand for speed; it must stay the bytes JSONEncoder with sorted
    /// keys writes, whatever the name holds.
    @Test(arguments: ["Jane Appleseed", #"Zoë "Jo" O'Brien/Smith \ Jr"#, "李小龙", "Åsa Ñúñez 🙂"])
    func matchesJSONEncoder(_ name: String) throws {
        struct Mirror: Encodable {
            var primaryAccountNumber, expiration, name, nonce, nonceSignature: String
        }
        let payload = ApplePassPayload(
            primaryAccountNumber: Fixtures.pan, expiry: try CardExpiry(month: 3, year: 2031), name: try CardholderName(name),
            nonce: Data([0x00, 0xFF]), nonceSignature: Data((0..<70).map { UInt8($0) }))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = try encoder.encode(
            Mirror(
                primaryAccountNumber: "4111111111111111", expiration: "03/31", name: payload.name.value, nonce: "00ff",
                nonceSignature: BinaryText.lowercaseHex(payload.nonceSignature)))
        #expect(payload.jsonData() == expected)
        #expect(try ApplePassPayload(jsonData: payload.jsonData()).name == payload.name)
    }
}

/// The CLI's input with one field changed, as JSON.
func requestJSON(
    nonce: String = "3f2a9107", signature: String = "MEUCIQ==", pan: String = "4111111111111111",
    expiration: String = "12/30", name: String = "Jane", scheme: String? = nil
) -> Data {
    var fields: [String: Any] = [
        "primaryAccountNumber": pan, "expiration": expiration, "name": name, "certificates": [String](), "nonce": nonce,
        "nonceSignature": signature,
    ]
    fields["encryptionScheme"] = scheme
    return try! JSONSerialization.data(withJSONObject: fields)
}

@Suite struct ApplePayloadRequestTests {
    @Test func acceptsNonceAndSignatureAsHexOrBase64() throws {
        let hex = try ApplePayloadRequest.decode(from: requestJSON(nonce: "3f2a9107", signature: "3045"))
        let base64 = try ApplePayloadRequest.decode(from: requestJSON(nonce: "PyqRBw==", signature: "MEU="))
        #expect(hex.challenge.nonce == Data([0x3F, 0x2A, 0x91, 0x07]))
        #expect(hex.challenge.nonce == base64.challenge.nonce)
        #expect(hex.challenge.nonceSignature == base64.challenge.nonceSignature)
        #expect(hex.challenge.scheme == .eccV2)
        #expect(try ApplePayloadRequest.decode(from: requestJSON(scheme: "RSA_V2")).challenge.scheme == .rsaV2)
        #expect(try ApplePayloadRequest.decode(from: requestJSON(scheme: "rsa_v2")).challenge.scheme == .rsaV2)
    }

    @Test(arguments: [
        (requestJSON(nonce: "%%%"), ProvisioError.Code.invalidNonce),
        (requestJSON(nonce: ""), .invalidNonce),
        (requestJSON(nonce: String(repeating: "ab", count: 257)), .invalidNonce),
        (requestJSON(signature: "?"), .invalidNonceSignature),
        (requestJSON(pan: "4111111111111112"), .invalidPAN),
        (requestJSON(expiration: "13/30"), .invalidExpiry),
        (requestJSON(name: " "), .invalidCardholderName),
        (requestJSON(scheme: "AES"), .unsupportedEncryptionScheme),
    ])
    func refusesBadFields(_ json: Data, _ code: ProvisioError.Code) {
        let error = #expect(throws: ProvisioError.self) { try ApplePayloadRequest.decode(from: json) }
        #expect(error?.code == code)
        #expect(error?.message.contains("4111111111111112") == false)
    }

    @Test func decodingNamesTheMissingField() {
        let missing = #expect(throws: ProvisioError.self) {
            try ApplePayloadRequest.decode(from: Data(#"{"primaryAccountNumber":"4111111111111111"}"#.utf8))
        }
        #expect(missing?.code == .invalidRequest)
        #expect(missing?.message.contains("expiration") == true)
        #expect(
            (#expect(throws: ProvisioError.self) { try ApplePayloadRequest.decode(from: Data("[1,2]".utf8)) })?.code
                == .invalidRequest)
        #expect(
            (#expect(throws: ProvisioError.self) { try ApplePayloadRequest.decode(from: Data("not json".utf8)) })?.code
                == .invalidRequest)
    }
}

/// The issuer side seals; the sandbox's Apple side opens with the leaf's private key.
@Suite struct ApplePayloadBuilderTests {
    let ca = Fixtures.sandboxCA
    let tavKey = P256.Signing.PrivateKey()
    var builder: ApplePayloadBuilder {
        ApplePayloadBuilder(
            validator: AppleCertificateChainValidator.production(additionalAnchors: [ca.root]),
            tavSigner: TAVSigner(privateKey: tavKey))
    }

    func request(_ scheme: EncryptionScheme, certificates: [String]? = nil, expiration: String = "12/30") throws
        -> ApplePayloadRequest
    {
        ApplePayloadRequest(
            primaryAccountNumber: try PrimaryAccountNumber("4111 1111 1111 1111"),
            expiry: try CardExpiry(slashed: expiration), name: try CardholderName("  Jane  Appleseed "),
            challenge: try PassKitChallenge(
                certificates: try certificates ?? ca.chainBase64(for: scheme), nonceText: "3f2a9107",
                nonceSignatureText: "PyqRBw==", schemeName: scheme.rawValue))
    }

    @Test(arguments: EncryptionScheme.allCases)
    func sandboxOpensWhatTheIssuerSealed(_ scheme: EncryptionScheme) throws {
        let response = try builder.build(request(scheme), at: Fixtures.today)
        let sealed = try #require(response.sealedPassData())
        let plaintext: Data
        switch scheme {
        case .eccV2:
            #expect(response.wrappedKey == nil)
            #expect(Data(base64Encoded: response.ephemeralPublicKey ?? "")?.count == 65)
            plaintext = try ca.eccOpener().open(sealed)
        case .rsaV2:
            #expect(response.ephemeralPublicKey == nil)
            #expect(Data(base64Encoded: response.wrappedKey ?? "")?.count == 256)
            plaintext = try ca.rsaOpener().open(sealed)
        }
        let payload = try ApplePassPayload(jsonData: plaintext)
        #expect(payload.primaryAccountNumber == Fixtures.pan)
        #expect(payload.expiry.slashed == "12/30")
        #expect(payload.name.value == "Jane Appleseed")
        #expect(payload.nonce == Data([0x3F, 0x2A, 0x91, 0x07]))
        #expect(payload.nonceSignature == Data([0x3F, 0x2A, 0x91, 0x07]))

        try TAVVerifier(publicKey: tavKey.publicKey).verify(
            activationData: response.activationData, pan: Fixtures.pan, expiry: Fixtures.expiry, at: Fixtures.today)
    }

    @Test func responseNeverCarriesThePANInClear() throws {
        let response = try builder.build(request(.eccV2), at: Fixtures.today)
        let json = String(decoding: try JSONEncoder().encode(response), as: UTF8.self)
        #expect(!json.contains("4111111111111111"))
        let tavJSON = String(decoding: Data(base64Encoded: response.activationData)!, as: UTF8.self)
        #expect(!tavJSON.contains("4111111111111111"))
    }

    @Test func chainErrorsSurfaceWithTheirCodes() throws {
        let expired = try request(.eccV2, certificates: Fixtures.productionChain.certificatesDERBase64)
        #expect((#expect(throws: ProvisioError.self) { try builder.build(expired, at: Fixtures.today) })?.code == .chainExpired)
        let empty = try request(.eccV2, certificates: [])
        #expect((#expect(throws: ProvisioError.self) { try builder.build(empty, at: Fixtures.today) })?.code == .chainEmpty)
    }

    /// The builder never signs activation data for an expired card, whoever made the request.
    @Test func refusesAnExpiredCard() throws {
        let expired = try request(.eccV2, expiration: "10/26")
        #expect((#expect(throws: ProvisioError.self) { try builder.build(expired, at: Fixtures.today) })?.code == .cardExpired)
    }

    @Test func realAppleChainOnItsDayGivesAPayloadForItsLeaf() throws {
        let real = try request(.eccV2, certificates: Fixtures.productionChain.certificatesDERBase64)
        let response = try builder.build(real, at: Fixtures.date("2020-01-01T00:00:00Z"))
        #expect(Data(base64Encoded: response.encryptedPassData)!.count > 100)
    }
}

@Suite struct ApplePayloadRequestRedactionTests {
    @Test func describingARequestNeverShowsThePAN() throws {
        let request = try ApplePayloadRequest.decode(from: requestJSON(pan: "4111 1111 1111 1111"))
        var dumped = ""
        dump(request, to: &dumped)
        for text in [String(describing: request), String(reflecting: request), "\(request)", dumped] {
            #expect(!text.contains("4111 1111 1111 1111") && !text.contains("4111111111111111"), "\(text)")
            #expect(text.contains("1111"))
        }
    }
}
