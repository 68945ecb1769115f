import Foundation
import ProvisioOpenPGP
import Testing

/// The Google opaque payment card: Google's JSON, sealed as Google asks, opened by GnuPG (a
/// client no one here wrote) and by this module as Google Wallet would, and refused when it was
/// tampered with, made by another issuer, meant for another session or not base64.
@Suite struct GoogleOpaquePaymentCardTests {
    static let card = try! GoogleOpaquePaymentCard(
        serverSessionID: "GoogleSession123", accountNumber: "4321123412341234", expiryMonth: 3, expiryYear: 2029)

    @Test func theJSONIsGooglesSchema() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Self.card.json) as? [String: Any])
        #expect(Set(object.keys) == ["protocolHeader", "validationContext", "paymentCard"])
        #expect((object["protocolHeader"] as? [String: Any])?["version"] as? Int == 1)
        #expect((object["validationContext"] as? [String: String]) == ["serverSessionId": "GoogleSession123"])
        #expect(
            (object["paymentCard"] as? [String: String])
                == ["accountNumber": "4321123412341234", "expiryMonth": "03", "expiryYear": "29"])
        #expect(try GoogleOpaquePaymentCard(json: Self.card.json) == Self.card)
        // Google's example writes the version as a number; protocol buffers' JSON also allows a string.
        let stringVersion = String(decoding: Self.card.json, as: UTF8.self).replacingOccurrences(
            of: #""version":1"#, with: #""version":"1""#)
        #expect(try GoogleOpaquePaymentCard(json: Data(stringVersion.utf8)) == Self.card)
        #expect(!"\(Self.card)".contains("4321123412341234"))
    }

    @Test(arguments: [
        ("4321", 3, 2029, "s"), ("43211234123412341234", 3, 2029, "s"), ("4321 1234 1234 1234", 3, 2029, "s"),
        ("4321123412341234", 0, 2029, "s"), ("4321123412341234", 13, 2029, "s"), ("4321123412341234", 3, 20290, "s"),
        ("4321123412341234", 3, 2029, ""), ("4321123412341234", 3, 2029, "a b"),
    ])
    func whatTheSchemaDoesNotAllowIsRefused(pan: String, month: Int, year: Int, session: String) {
        #expect {
            try GoogleOpaquePaymentCard(serverSessionID: session, accountNumber: pan, expiryMonth: month, expiryYear: year)
        } throws: { ($0 as? OpenPGPError)?.code == .googleOPCInvalidCard && !"\($0)".contains(pan) }
    }

    @Test(arguments: [
        #"{"protocolHeader":{"version":2},"validationContext":{"serverSessionId":"s"},"paymentCard":{"accountNumber":"4321123412341234","expiryMonth":"03","expiryYear":"29"}}"#,
        #"{"protocolHeader":{"version":1},"paymentCard":{"accountNumber":"4321123412341234","expiryMonth":"03","expiryYear":"29"}}"#,
        #"{"protocolHeader":{"version":1},"validationContext":{"serverSessionId":"s"},"paymentCard":{"accountNumber":"4321123412341234","expiryMonth":"3","expiryYear":"29"}}"#,
        #"{"protocolHeader":{"version":1},"validationContext":{"serverSessionId":"s"},"paymentCard":{"accountNumber":4321123412341234,"expiryMonth":"03","expiryYear":"29"}}"#,
        #"{"protocolHeader":{"version":1},"validationContext":{"serverSessionId":"s"},"paymentCard":{"accountNumber":"4321123412341234","expiryMonth":"+3","expiryYear":"29"}}"#,
        "not json",
    ])
    func otherContentIsMalformed(json: String) {
        #expect {
            try GoogleOpaquePaymentCard(json: Data(json.utf8))
        } throws: { ($0 as? OpenPGPError)?.code == .googleOPCMalformed }
    }

    /// GnuPG opens the base64's bytes with Google's key and verifies the issuer's signature,
    /// SHA-384 and AES-256, and finds exactly the card's JSON.
    @Test func gnupgOpensTheSealedCard() async throws {
        let opc = try Self.card.seal(issuer: TestKeys.issuer, googleKeys: [TestKeys.wallet.publicKey], at: TestKeys.now)
        let message = try #require(Data(base64Encoded: opc), "the OPC is standard base64")
        try await GnuPG.withHome { gpg in
            try await gpg.importKey(TestKeys.wallet.armored)
            try await gpg.importKey(TestKeys.issuer.publicKey.armored)
            let output = gpg.file("opc.json").path
            let run = try await gpg.run(
                ["--status-fd", "1", "--output", output, "--decrypt", try gpg.write(message, to: "opc.gpg")])
            let json = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(try GoogleOpaquePaymentCard(json: json) == Self.card)
            #expect(run.standardOutput.contains("[GNUPG:] GOODSIG \(TestKeys.issuer.fingerprint.suffix(16))"))
            #expect(run.standardOutput.contains("[GNUPG:] GOODMDC"))
            #expect(run.standardOutput.contains("[GNUPG:] DECRYPTION_INFO 2 9"))
        }
    }

    @Test func googleOpensItInEitherAlphabetAndForItsSessionOnly() throws {
        // Two Google keys during a rotation: either opens it.
        let opc = try Self.card.seal(
            issuer: TestKeys.issuer, googleKeys: [TestKeys.otherWallet.publicKey, TestKeys.wallet.publicKey], at: TestKeys.now)
        func open(
            _ text: String, session: String? = "GoogleSession123", issuers: [OpenPGPPublicKey] = [TestKeys.issuer.publicKey]
        )
            throws -> GoogleOpaquePaymentCard
        {
            try GoogleOpaquePaymentCard.open(
                text, googleKeys: [TestKeys.wallet], issuers: issuers, serverSessionID: session, at: TestKeys.now)
        }
        #expect(try open(opc) == Self.card)
        let urlSafe = opc.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(try open(urlSafe) == Self.card)

        func code(_ body: () throws -> Any) -> String? {
            do {
                _ = try body()
                return nil
            } catch let error as OpenPGPError {
                return error.code.rawValue
            } catch {
                return "\(error)"
            }
        }
        #expect(code { try open(opc, session: "AnotherSession") } == "google_opc_session_mismatch")
        #expect(code { try open(opc, issuers: [TestKeys.otherIssuer.publicKey]) } == "openpgp_unknown_signer")
        #expect(code { try open("not base64!") } == "google_opc_not_base64")
        #expect(
            code { try open(String(repeating: "A", count: GoogleOpaquePaymentCard.maximumOPCLength + 4)) }
                == "google_opc_not_base64")
        var bytes = try #require(Data(base64Encoded: opc))
        bytes[bytes.count - 30] ^= 0x01
        #expect(code { try open(bytes.base64EncodedString()) } == "openpgp_integrity_check_failed")
        // Another issuer's card, however well formed, is not this issuer's.
        let forged = try Self.card.seal(issuer: TestKeys.otherIssuer, googleKeys: [TestKeys.wallet.publicKey], at: TestKeys.now)
        #expect(code { try open(forged) } == "openpgp_unknown_signer")
        // Sealed for another Google key only.
        let elsewhere = try Self.card.seal(
            issuer: TestKeys.issuer, googleKeys: [TestKeys.otherWallet.publicKey], at: TestKeys.now)
        #expect(code { try open(elsewhere) } == "openpgp_not_for_recipient")
    }
}
