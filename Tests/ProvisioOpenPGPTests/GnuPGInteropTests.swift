import Foundation
import ProvisioOpenPGP
import Testing

/// Interoperability with GnuPG in both directions, with the keys Google's guide describes (an
/// RSA primary key that signs, an RSA subkey that encrypts) and its settings (SHA-384, AES-256).
@Suite(.serialized) struct GnuPGInteropTests {
    /// gpg decrypts and verifies what this module sealed, armoured or not, compressed or not.
    @Test(arguments: [(false, OpenPGPCompression.uncompressed), (true, .zlib), (false, .zip)])
    func gnupgOpensWhatThisModuleSeals(armored: Bool, compression: OpenPGPCompression) async throws {
        try await GnuPG.withHome { gpg in
            try await gpg.importKey(TestKeys.wallet.armored)
            try await gpg.importKey(TestKeys.issuer.publicKey.armored)
            let sealed = try TestKeys.seal(options: OpenPGPSealOptions(compression: compression))
            let message = armored ? Data(OpenPGPArmor.encode(sealed, as: .message).utf8) : sealed
            let output = gpg.file("card.json").path
            let run = try await gpg.run(
                ["--status-fd", "1", "--output", output, "--decrypt", try gpg.write(message, to: "card.gpg")])
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == TestKeys.card)
            let status = run.standardOutput
            #expect(status.contains("[GNUPG:] DECRYPTION_OKAY"))
            #expect(status.contains("[GNUPG:] GOODMDC"))
            #expect(status.contains("[GNUPG:] GOODSIG \(TestKeys.issuer.fingerprint.suffix(16))"))
            #expect(status.contains("[GNUPG:] VALIDSIG \(TestKeys.issuer.fingerprint)"))
            // VALIDSIG's eighth field is the digest (9, SHA-384); DECRYPTION_INFO's second the cipher (9, AES-256).
            let validSignature = status.split(separator: "\n").first { $0.hasPrefix("[GNUPG:] VALIDSIG ") }?.split(separator: " ")
            #expect(validSignature?.count ?? 0 > 9 && validSignature?[9] == "9")
            #expect(status.contains("[GNUPG:] DECRYPTION_INFO 2 9"))
        }
    }

    /// This module opens what `gpg --sign --encrypt` made with the module's keys imported, with
    /// Google's documented options and with GnuPG's defaults (which compress).
    @Test(arguments: [
        ["--digest-algo", "SHA384", "--cipher-algo", "AES256", "--armor"],
        ["--digest-algo", "SHA384", "--cipher-algo", "AES256", "--compress-algo", "none"],
        ["--compress-algo", "zip", "--digest-algo", "SHA512"],
        [],
    ])
    func thisModuleOpensWhatGnuPGSeals(options: [String]) async throws {
        try await GnuPG.withHome { gpg in
            try await gpg.importKey(TestKeys.issuer.armored)
            try await gpg.importKey(TestKeys.wallet.publicKey.armored)
            let output = gpg.file("card.gpg").path
            try await gpg.run(
                ["--local-user", TestKeys.issuer.fingerprint + "!", "--recipient", TestKeys.wallet.fingerprint] + options
                    + ["--output", output, "--sign", "--encrypt", try gpg.write(TestKeys.card, to: "card.json")])
            let message = try Data(contentsOf: URL(fileURLWithPath: output))
            let opened = try OpenPGPMessage.open(
                message, recipientKeys: [TestKeys.wallet], signers: [TestKeys.issuer.publicKey], at: Date())
            #expect(opened.data == TestKeys.card)
            #expect(opened.signerFingerprint == TestKeys.issuer.fingerprint)
            #expect(opened.fileName == "card.json")
        }
    }

    /// Keys GnuPG generated as Google's guide says (`rsa3072`, a signing primary key and an
    /// encryption subkey, one year) are read by this module, and messages go both ways with them.
    @Test func keysGnuPGGeneratesWorkBothWays() async throws {
        try await GnuPG.withHome { gpg in
            let userID = "Google Sandbox <sandbox@example.com>"
            try await gpg.run(["--quick-generate-key", userID, "rsa3072", "sign,cert", "1y"])
            let listed = try await gpg.run(["--with-colons", "--list-keys", userID]).standardOutput
            let fingerprint = try #require(
                listed.split(separator: "\n").first { $0.hasPrefix("fpr:") }?.split(
                    separator: ":", omittingEmptySubsequences: false)[9])
            try await gpg.run(["--quick-add-key", String(fingerprint), "rsa3072", "encr", "1y"])
            let publicKey = try OpenPGPPublicKey(Data(try await gpg.run(["--armor", "--export", userID]).standardOutput.utf8))
            let secretKey = try OpenPGPSecretKey(
                Data(try await gpg.run(["--armor", "--export-secret-keys", userID]).standardOutput.utf8))
            #expect(publicKey.fingerprint == String(fingerprint))
            #expect(secretKey.fingerprint == String(fingerprint))
            #expect(publicKey.keyFingerprints.count == 2)
            #expect(publicKey.userIDs == [userID])

            // To GnuPG's key, signed by this module's issuer key: gpg decrypts and verifies.
            try await gpg.importKey(TestKeys.issuer.publicKey.armored)
            let sealed = try OpenPGPMessage.seal(TestKeys.card, signer: TestKeys.issuer, recipients: [publicKey], at: Date())
            let output = gpg.file("card.json").path
            let run = try await gpg.run(["--status-fd", "1", "--output", output, "--decrypt", try gpg.write(sealed, to: "a.gpg")])
            #expect(run.standardOutput.contains("[GNUPG:] VALIDSIG \(TestKeys.issuer.fingerprint)"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == TestKeys.card)

            // Signed by GnuPG's key, encrypted to this module's wallet key: this module opens it.
            try await gpg.importKey(TestKeys.wallet.publicKey.armored)
            let signed = gpg.file("b.gpg").path
            try await gpg.run(
                [
                    "--local-user", String(fingerprint), "--recipient", TestKeys.wallet.fingerprint, "--digest-algo", "SHA384",
                    "--output", signed, "--sign", "--encrypt", try gpg.write(TestKeys.card, to: "b.json"),
                ])
            let opened = try OpenPGPMessage.open(
                try Data(contentsOf: URL(fileURLWithPath: signed)), recipientKeys: [TestKeys.wallet], signers: [publicKey],
                at: Date())
            #expect(opened.data == TestKeys.card)
            #expect(opened.signerFingerprint == String(fingerprint))

            // A message to GnuPG's key opens with the secret key GnuPG exported.
            let toGoogle = try OpenPGPMessage.seal(TestKeys.card, signer: TestKeys.issuer, recipients: [publicKey], at: Date())
            let reopened = try OpenPGPMessage.open(
                toGoogle, recipientKeys: [secretKey], signers: [TestKeys.issuer.publicKey], at: Date())
            #expect(reopened.data == TestKeys.card)
        }
    }

    /// A message GnuPG signed with another key than the one the caller trusts is refused.
    @Test func gnupgMessageFromAnotherSignerIsAnUnknownSigner() async throws {
        try await GnuPG.withHome { gpg in
            try await gpg.importKey(TestKeys.otherIssuer.armored)
            try await gpg.importKey(TestKeys.wallet.publicKey.armored)
            let output = gpg.file("card.gpg").path
            try await gpg.run(
                [
                    "--local-user", TestKeys.otherIssuer.fingerprint, "--recipient", TestKeys.wallet.fingerprint,
                    "--output", output, "--sign", "--encrypt", try gpg.write(TestKeys.card, to: "card.json"),
                ])
            let message = try Data(contentsOf: URL(fileURLWithPath: output))
            let code = TestKeys.code { () throws(OpenPGPError) in
                try OpenPGPMessage.open(
                    message, recipientKeys: [TestKeys.wallet], signers: [TestKeys.issuer.publicKey], at: Date())
            }
            #expect(code == .unknownSigner)
        }
    }
}
