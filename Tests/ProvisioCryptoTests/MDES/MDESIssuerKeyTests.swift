import Crypto
import Foundation
import ProvisioCore
import Testing
import _CryptoExtras

@testable import ProvisioCrypto

@Suite struct MDESIssuerKeyTests {
    @Test(arguments: MDESVectors.shared.keys.map(\.name)) func fingerprintsAsPythonDoes(_ name: String) throws {
        let record = try #require(MDESVectors.shared.keys.first { $0.name == name })
        let key = try #require(MDESVectors.issuerKeys[name])
        // SHA-256 of the DER SubjectPublicKeyInfo, lowercase hex, as the generator computed it.
        #expect(key.publicKeyFingerprint == record.fingerprintSHA256)
        #expect(key.publicKeyFingerprint.count == 64)
        #expect(
            try key.publicKeyPEM.trimmingCharacters(in: .newlines) == record.publicKeySPKIPEM.trimmingCharacters(in: .newlines))
        #expect(key.isNamed(by: Fixtures.hex(record.fingerprintSHA256)))
        #expect(key.isNamed(by: Fixtures.hex(record.fingerprintSHA1)))
        #expect(!key.isNamed(by: Fixtures.hex(String(record.fingerprintSHA256.dropLast(2)) + "00")))
        #expect(key.modulusByteCount * 8 == record.bits)
    }

    @Test(arguments: [2048, 3072]) func generatesAnRSAKeyAndExportsItsPublicHalf(_ bits: Int) throws {
        let key = try MDESIssuerKey.generate(keySizeInBits: bits)
        let publicKey = try _RSA.Encryption.PublicKey(pemRepresentation: try key.publicKeyPEM)
        #expect(publicKey.keySizeInBits == bits && key.keySizeInBits == bits)
        #expect(try key.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(key.publicKeyFingerprint == BinaryText.lowercaseHex(SHA256.hash(data: publicKey.derRepresentation)))
        // The private half survives a PEM round trip as the same key.
        let pem = try key.privateKeyPEM
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try MDESIssuerKey(privateKeyPEM: pem).publicKeyFingerprint == key.publicKeyFingerprint)
        // Two generations are two keys.
        #expect(try MDESIssuerKey.generate().publicKeyFingerprint != key.publicKeyFingerprint)
    }

    @Test func generatesRSA2048ByDefaultAndNoOtherSizeThan2048Or3072() throws {
        // 2048: Mastercard's published encryptedKey holds at most a 2048-bit block (docs/mdes.md).
        #expect(try MDESIssuerKey.generate().keySizeInBits == 2048)
        for bits in [1024, 2047, 4096, 0, -8] {
            #expect(MDESVectors.code { try MDESIssuerKey.generate(keySizeInBits: bits) } == "mdes_key_size_unsupported")
        }
    }

    @Test func refusesWhatIsNotAnRSAKeyOf2048BitsOrMore() throws {
        #expect(MDESVectors.code { try MDESIssuerKey(privateKeyPEM: "not a key") } == "mdes_key_invalid")
        #expect(MDESVectors.code { try MDESIssuerKey(privateKeyDER: Data([0x30, 0x00])) } == "mdes_key_invalid")
        let short = try _RSA.Encryption.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        #expect(MDESVectors.code { try MDESIssuerKey(privateKeyPEM: short.pemRepresentation) } == "mdes_key_invalid")
        let ec = P256.Signing.PrivateKey()
        #expect(MDESVectors.code { try MDESIssuerKey(privateKeyPEM: ec.pemRepresentation) } == "mdes_key_invalid")
        let error = try #require(throws: ProvisioError.self) { try MDESIssuerKey(privateKeyPEM: short.pemRepresentation) }
        #expect(!error.description.contains("PRIVATE KEY"))
    }
}
