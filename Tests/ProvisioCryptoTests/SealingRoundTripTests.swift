import Crypto
import Foundation
import ProvisioCore
import Testing
import _CryptoExtras

@testable import ProvisioCrypto

@Suite struct ECCV2RoundTripTests {
    @Test(arguments: [0, 1, 15, 16, 17, 250, 4096])
    func opensWhatItSealed(length: Int) throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let plaintext = Data((0..<length).map { _ in UInt8.random(in: 0...255) })
        let sealed = try ECCV2Sealer(recipient: recipient.publicKey).seal(plaintext)
        #expect(sealed.encryptedPassData.count == length + 16)
        guard case .ephemeralPublicKey(let epk) = sealed.keyMaterial else { Issue.record("no EPK"); return }
        #expect(epk.count == 65 && epk.first == 0x04)
        #expect(try ECCV2Opener(privateKey: recipient).open(sealed) == plaintext)
    }

    @Test func tamperingWithAnyByteOfEncryptedPassDataFails() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let sealed = try ECCV2Sealer(recipient: recipient.publicKey).seal(Data("{\"primaryAccountNumber\":\"x\"}".utf8))
        guard case .ephemeralPublicKey(let epk) = sealed.keyMaterial else { Issue.record("no EPK"); return }
        let opener = ECCV2Opener(privateKey: recipient)
        for index in sealed.encryptedPassData.indices {
            var tampered = sealed.encryptedPassData
            tampered[index] ^= 0x01
            let error = #expect(throws: ProvisioError.self) {
                try opener.open(encryptedPassData: tampered, ephemeralPublicKey: epk)
            }
            #expect(error?.code == .payloadAuthenticationFailed)
        }
        let truncated = #expect(throws: ProvisioError.self) {
            try opener.open(encryptedPassData: sealed.encryptedPassData.prefix(15), ephemeralPublicKey: epk)
        }
        #expect(truncated?.code == .payloadMalformed)
    }

    @Test func tamperingWithAnyByteOfTheEphemeralKeyFails() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let sealed = try ECCV2Sealer(recipient: recipient.publicKey).seal(Data("payload".utf8))
        guard case .ephemeralPublicKey(let epk) = sealed.keyMaterial else { Issue.record("no EPK"); return }
        let opener = ECCV2Opener(privateKey: recipient)
        for index in epk.indices {
            var tampered = epk
            tampered[index] ^= 0x01
            let error = #expect(throws: ProvisioError.self) {
                try opener.open(encryptedPassData: sealed.encryptedPassData, ephemeralPublicKey: tampered)
            }
            // A flipped coordinate is off the curve; a flipped prefix is not uncompressed form.
            #expect(error?.code == .invalidEphemeralPublicKey || error?.code == .payloadAuthenticationFailed)
        }
        #expect(throws: ProvisioError.self) {
            try opener.open(encryptedPassData: sealed.encryptedPassData, ephemeralPublicKey: epk.prefix(33))
        }
    }

    @Test func anotherRecipientCannotOpen() throws {
        let sealed = try ECCV2Sealer(recipient: P256.KeyAgreement.PrivateKey().publicKey).seal(Data("payload".utf8))
        let error = #expect(throws: ProvisioError.self) {
            try ECCV2Opener(privateKey: P256.KeyAgreement.PrivateKey()).open(sealed)
        }
        #expect(error?.code == .payloadAuthenticationFailed)
    }
}

@Suite struct RSAV2RoundTripTests {
    /// The sandbox CA's RSA-2048 leaf key (generated once per run; RSA key generation is slow).
    static var key: _RSA.Encryption.PrivateKey { try! .init(pemRepresentation: Fixtures.sandboxCA.rsaLeafKeyPEM!) }

    @Test func opensWhatItSealed() throws {
        let plaintext = Data("{\"primaryAccountNumber\":\"4111111111111111\"}".utf8)
        let sealed = try RSAV2Sealer(recipient: Self.key.publicKey).seal(plaintext)
        guard case .wrappedKey(let wrapped) = sealed.keyMaterial else { Issue.record("no wrapped key"); return }
        #expect(wrapped.count == 256)
        #expect(sealed.encryptedPassData.count == plaintext.count + 16)
        #expect(try RSAV2Opener(privateKey: Self.key).open(sealed) == plaintext)
    }

    @Test func wrapsAFreshKeyEachTime() throws {
        let sealer = RSAV2Sealer(recipient: Self.key.publicKey)
        #expect(try sealer.seal(Data("x".utf8)) != sealer.seal(Data("x".utf8)))
    }

    @Test func wrappedKeyIsOAEPWithSHA256() throws {
        // The construction we document: unwrapping with OAEP-SHA1 must fail, with OAEP-SHA256 succeed.
        let sealed = try RSAV2Sealer(recipient: Self.key.publicKey).seal(Data("x".utf8))
        guard case .wrappedKey(let wrapped) = sealed.keyMaterial else { Issue.record("no wrapped key"); return }
        #expect(throws: (any Error).self) { try Self.key.decrypt(wrapped, padding: .PKCS1_OAEP) }
        #expect(try Self.key.decrypt(wrapped, padding: .PKCS1_OAEP_SHA256).count == 32)
    }

    @Test func tamperingFailsClearly() throws {
        let sealed = try RSAV2Sealer(recipient: Self.key.publicKey).seal(Data("payload".utf8))
        guard case .wrappedKey(let wrapped) = sealed.keyMaterial else { Issue.record("no wrapped key"); return }
        let opener = RSAV2Opener(privateKey: Self.key)
        var badKey = wrapped
        badKey[17] ^= 0x80
        #expect(
            (#expect(throws: ProvisioError.self) {
                try opener.open(encryptedPassData: sealed.encryptedPassData, wrappedKey: badKey)
            })?.code == .invalidWrappedKey)
        for index in sealed.encryptedPassData.indices {
            var badData = sealed.encryptedPassData
            badData[index] ^= 0x01
            #expect(
                (#expect(throws: ProvisioError.self) { try opener.open(encryptedPassData: badData, wrappedKey: wrapped) })?.code
                    == .payloadAuthenticationFailed)
        }
    }

    @Test func refusesShortRSAKeys() throws {
        let small = try _RSA.Encryption.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        let error = #expect(throws: ProvisioError.self) {
            try RSAV2Sealer(recipientSubjectPublicKeyInfo: small.publicKey.derRepresentation)
        }
        #expect(error?.code == .chainWrongKeyType)
    }
}
