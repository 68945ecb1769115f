import Foundation
import ProvisioOpenPGP
import Testing

@Suite struct RoundTripTests {
    @Test func sealedCardOpensWithTheWalletKeyAndTheIssuerSignature() throws {
        let message = try TestKeys.seal()
        let opened = try TestKeys.open(message)
        #expect(opened.data == TestKeys.card)
        #expect(opened.signerFingerprint == TestKeys.issuer.fingerprint)
        #expect(opened.signatureTime == Date(timeIntervalSince1970: TestKeys.now.timeIntervalSince1970.rounded(.down)))
        // Sealing twice gives two ciphertexts (fresh session key, fresh random prefix).
        #expect(try TestKeys.seal() != message)
    }

    @Test(arguments: OpenPGPCompression.allCases)
    func everyCompressionRoundTrips(_ compression: OpenPGPCompression) throws {
        let large = Data(repeating: UInt8(ascii: "a"), count: 100_000)
        let message = try TestKeys.seal(large, options: OpenPGPSealOptions(compression: compression))
        #expect(try TestKeys.open(message).data == large)
        #expect((compression == .uncompressed) == (message.count > large.count))
    }

    @Test(arguments: OpenPGPHashAlgorithm.allCases, OpenPGPSymmetricAlgorithm.allCases)
    func everyHashAndCipherRoundTrips(_ hash: OpenPGPHashAlgorithm, _ cipher: OpenPGPSymmetricAlgorithm) throws {
        let message = try TestKeys.seal(options: OpenPGPSealOptions(hash: hash, cipher: cipher, fileName: "card.json"))
        let opened = try TestKeys.open(message)
        #expect(opened.data == TestKeys.card)
        #expect(opened.fileName == "card.json")
    }

    @Test func armouredMessageOpensAndNamesItsKind() throws {
        let armored = OpenPGPArmor.encode(try TestKeys.seal(), as: .message)
        #expect(armored.hasPrefix("-----BEGIN PGP MESSAGE-----\n"))
        #expect(armored.split(separator: "\n").allSatisfy { $0.count <= 64 })
        #expect(try TestKeys.open(Data(armored.utf8)).data == TestKeys.card)
        let (kind, _) = try OpenPGPArmor.decode(armored)
        #expect(kind == .message)
    }

    @Test func emptyAndBinaryPlaintextsRoundTrip() throws {
        for data in [Data(), Data((0...255).map { UInt8($0) })] {
            #expect(try TestKeys.open(try TestKeys.seal(data)).data == data)
        }
    }

    @Test func severalRecipientsEachOpenTheSameMessage() throws {
        let message = try TestKeys.seal(to: [TestKeys.wallet.publicKey, TestKeys.otherWallet.publicKey])
        #expect(try TestKeys.open(message, recipient: TestKeys.wallet).data == TestKeys.card)
        #expect(try TestKeys.open(message, recipient: TestKeys.otherWallet).data == TestKeys.card)
    }

    @Test func keysSurviveExportAndImport() throws {
        let secret = try OpenPGPSecretKey(Data(TestKeys.wallet.armored.utf8))
        #expect(secret.fingerprint == TestKeys.wallet.fingerprint)
        #expect(secret.binary == TestKeys.wallet.binary)
        let publicKey = try OpenPGPPublicKey(TestKeys.wallet.publicKey.binary)
        #expect(publicKey.binary == TestKeys.wallet.publicKey.binary)
        #expect(publicKey.userIDs == ["Wallet Encryption <wallet@example.com>"])
        #expect(publicKey.keyFingerprints.count == 2)
        #expect(publicKey.fingerprint.count == 40)
        #expect(publicKey.expiration == TestKeys.created.addingTimeInterval(365 * 24 * 3600))
        // A message sealed to the re-read key opens with the re-read secret key.
        let message = try OpenPGPMessage.seal(
            TestKeys.card, signer: TestKeys.issuer, recipients: [publicKey], at: TestKeys.now)
        #expect(try TestKeys.open(message, recipient: secret).data == TestKeys.card)
    }

    @Test func secretKeysNeverShowTheirSecrets() throws {
        let key = TestKeys.wallet
        var dumped = ""
        dump(key, to: &dumped)
        for text in [String(describing: key), String(reflecting: key), dumped, "\(key)"] {
            #expect(text.contains(key.fingerprint))
            #expect(text.count < 200)
        }
    }

    @Test func publicKeyAndSecretKeyArmourAreNotInterchangeable() {
        #expect(
            TestKeys.code { () throws(OpenPGPError) in try OpenPGPPublicKey(Data(TestKeys.wallet.armored.utf8)) }
                == .unexpectedPacket)
        #expect(
            TestKeys.code { () throws(OpenPGPError) in try OpenPGPSecretKey(TestKeys.wallet.publicKey.binary) }
                == .unexpectedPacket)
    }

    @Test func expiredKeysAreRefusedForNewMessages() {
        let later = TestKeys.created.addingTimeInterval(366 * 24 * 3600)
        let code = TestKeys.code { () throws(OpenPGPError) in
            try OpenPGPMessage.seal(TestKeys.card, signer: TestKeys.issuer, recipients: [TestKeys.wallet.publicKey], at: later)
        }
        #expect(code == .keyUnusable)
    }
}
