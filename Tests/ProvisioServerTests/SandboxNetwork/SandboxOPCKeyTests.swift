import Crypto
import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import Testing

/// The sandbox network opens the opaque payment card Provisio builds for Google Pay and
/// Samsung Pay, and refuses one it cannot open or whose card JSON is not Provisio's.
@Suite struct SandboxOPCKeyTests {
    static let pan = "4111111111111111"

    @Test(arguments: TestEngine.available)
    func networkOpensWhatProvisioBuilds(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let card = try await server.makeCard(apiKey: apiKey, pan: Self.pan)
            let api = server.api(apiKey)
            let key = SandboxOPCKey(privateKey: server.networkKey)
            let google = try await api.provisionGooglePay(path: .init(id: card.id), body: .json(.init())).ok.body.json
            // Samsung Pay's payload is the same JWE, in base64.
            let samsung = try await api.provisionSamsungPay(path: .init(id: card.id), body: .json(.init())).ok.body.json
            let samsungJWE = String(decoding: try #require(Data(base64Encoded: samsung.provisionPayload)), as: UTF8.self)
            for (wallet, opc) in [(Wallet.googlePay, google.opaquePaymentCard), (.samsungPay, samsungJWE)] {
                let opened = try key.open(opc)
                #expect(opened.primaryAccountNumber.unmaskedDigits == Self.pan)
                #expect(opened.expiry == (try CardExpiry(month: card.expiryMonth, year: card.expiryYear)))
                #expect(opened.cardholderName.value == card.cardholderName)
                #expect(opened.wallet == wallet)
                #expect(opened.cardID == card.id)
                #expect(abs(opened.issuedAt.timeIntervalSince(server.clock.now())) < 2)
                // Whatever prints it shows the card masked.
                #expect(!"\(opened)".contains(Self.pan) && !String(reflecting: opened).contains(Self.pan))
            }

            let push = try await api.provisionGooglePay(path: .init(id: card.id), body: .json(.init())).ok.body.json
            // Sealed to another network's key, or changed on the way: the network cannot open it.
            let other = SandboxOPCKey()
            #expect(Self.code { try other.open(push.opaquePaymentCard) } == .sandboxOpcUnreadable)
            #expect(Self.code { try key.open(Self.tampered(push.opaquePaymentCard)) } == .sandboxOpcUnreadable)
            #expect(Self.code { try key.open("not a JWE") } == .sandboxOpcUnreadable)
        }
    }

    /// Provisio's card JSON, read strictly: a missing, unknown or mistyped member is refused.
    @Test(arguments: [
        #"{"fpan":"4111111111111111","expiry_month":12,"expiry_year":2031,"cardholder_name":"A B","wallet":"google_pay","card_id":"card_1"}"#,
        #"{"fpan":"4111111111111111","expiry_month":12,"expiry_year":2031,"cardholder_name":"A B","wallet":"google_pay","card_id":"card_1","issued_at":"2026-01-01T00:00:00Z","cvc":"123"}"#,
        #"{"fpan":"4111111111111111","expiry_month":"12","expiry_year":2031,"cardholder_name":"A B","wallet":"google_pay","card_id":"card_1","issued_at":"2026-01-01T00:00:00Z"}"#,
        #"{"fpan":"4111111111111112","expiry_month":12,"expiry_year":2031,"cardholder_name":"A B","wallet":"google_pay","card_id":"card_1","issued_at":"2026-01-01T00:00:00Z"}"#,
        #"{"fpan":"4111111111111111","expiry_month":12,"expiry_year":2031,"cardholder_name":"A B","wallet":"paypal","card_id":"card_1","issued_at":"2026-01-01T00:00:00Z"}"#,
        #"{"fpan":"4111111111111111","expiry_month":12,"expiry_year":2031,"cardholder_name":"A B","wallet":"google_pay","card_id":"card_1","issued_at":"yesterday"}"#,
        #"["fpan"]"#,
    ])
    func cardJSONIsReadStrictly(_ json: String) throws {
        let key = SandboxOPCKey()
        let jwe = try JWEEncrypter(recipient: key.publicKey).encrypt(Data(json.utf8), contentType: "application/json")
        #expect(Self.code { try key.open(jwe) } == .sandboxOpcInvalid)
        // The refusal never repeats the card number.
        #expect((try? key.open(jwe)) == nil)
        do {
            _ = try key.open(jwe)
        } catch let error as ProvisioError {
            #expect(!error.message.contains("411111"))
        }
    }

    @Test func keyIsKeptInItsDirectory() throws {
        let directory = NSTemporaryDirectory() + "opc-key-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (made, generated) = try SandboxOPCKey.loadOrGenerate(in: directory)
        #expect(generated)
        let (loaded, again) = try SandboxOPCKey.loadOrGenerate(in: directory)
        #expect(!again)
        #expect(loaded.publicKey.rawRepresentation == made.publicKey.rawRepresentation)
        let privatePath = (directory as NSString).appendingPathComponent(SandboxOPCKey.privateKeyFile)
        let mode = try FileManager.default.attributesOfItem(atPath: privatePath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // The public file is what Provisio's `serve --network-key` reads.
        let publicPEM = try String(
            contentsOfFile: (directory as NSString).appendingPathComponent(SandboxOPCKey.publicKeyFile), encoding: .utf8)
        let published = try P256.KeyAgreement.PublicKey(pemRepresentation: publicPEM)
        #expect(published.rawRepresentation == made.publicKey.rawRepresentation)
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: privatePath))
        #expect(Self.code { try SandboxOPCKey.loadOrGenerate(in: directory) } == .sandboxOpcKeyInvalid)
    }

    /// One character of the ciphertext changed.
    static func tampered(_ jwe: String) -> String {
        var parts = jwe.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var ciphertext = Array(parts[3])
        ciphertext[0] = ciphertext[0] == "A" ? "B" : "A"
        parts[3] = String(ciphertext)
        return parts.joined(separator: ".")
    }

    static func code<T>(_ body: () throws -> T) -> ProvisioError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as ProvisioError {
            return error.code
        } catch {
            return nil
        }
    }
}
