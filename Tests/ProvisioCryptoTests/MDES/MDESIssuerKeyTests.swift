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

    @Test func generatesAnRSA3072KeyAndExportsItsPublicHalf() throws {
        let key = try MDESIssuerKey.generate()
        let publicKey = try _RSA.Encryption.PublicKey(pemRepresentation: try key.publicKeyPEM)
        #expect(publicKey.keySizeInBits == 3072)
        #expect(try key.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(key.publicKeyFingerprint == BinaryText.lowercaseHex(SHA256.hash(data: publicKey.derRepresentation)))
        // The private half survives a PEM round trip as the same key.
        let pem = try key.privateKeyPEM
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try MDESIssuerKey(privateKeyPEM: pem).publicKeyFingerprint == key.publicKeyFingerprint)
        // Two generations are two keys.
        #expect(try MDESIssuerKey.generate().publicKeyFingerprint != key.publicKeyFingerprint)
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
