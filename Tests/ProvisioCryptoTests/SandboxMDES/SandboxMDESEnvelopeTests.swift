import Crypto
import Foundation
import ProvisioCore
import Testing
import _CryptoExtras

@testable import ProvisioCrypto

/// The sandbox's MDES encrypts with its own code, written from the MDES document; Provisio's
/// `MDESPayloadDecrypter` must open every variant the document allows, for both key sizes, and
/// name the key by the fingerprint `tenants mdes-key` prints.
@Suite struct SandboxMDESEnvelopeTests {
    static let keys: [MDESIssuerKey] = [
        try! MDESIssuerKey.generate(keySizeInBits: 2048), try! MDESIssuerKey.generate(keySizeInBits: 3072),
    ]

    static let plaintext = Data(
        #"{"cardAccountData":{"accountNumber":"5555555555554444","expiryMonth":"12","expiryYear":"31"},"dataValidUntilTimestamp":"2031-01-01T00:00:00.000Z"}"#
            .utf8)

    @Test(arguments: MDESEnvelopeOptions.allVariants, [0, 1])
    func provisiosDecrypterOpensEveryVariant(_ options: MDESEnvelopeOptions, _ keyIndex: Int) throws {
        let key = Self.keys[keyIndex]
        let encryptor = try MDESPayloadEncryptor(publicKeyPEM: try key.publicKeyPEM, options: options)
        #expect(encryptor.publicKeyFingerprint == key.publicKeyFingerprint)
        let envelope = try encryptor.seal(Self.plaintext)
        let opened = try MDESPayloadDecrypter(keys: [key]).decrypt(Self.wire(envelope))
        #expect(opened.plaintext == Self.plaintext)
        #expect(opened.keyFingerprint == key.publicKeyFingerprint)

        // The fields as the document lays them out, lower-case hex.
        #expect(envelope.encryptedKey.count == key.keySizeInBits / 4)
        #expect(envelope.oaepHashingAlgorithm == [.oaepSHA256: "SHA256", .oaepSHA512: "SHA512"][options.keyWrapping])
        switch options.cipherMode {
        case .gcm:
            #expect(envelope.algorithmCipherMode == "GCM" && envelope.iv.count == 24)
            #expect(envelope.tag?.count == 32 && envelope.aad?.count == 32)
        case .cbc:
            #expect(envelope.algorithmCipherMode == "CBC" && envelope.iv.count == 32)
            #expect(envelope.tag == nil && envelope.aad == nil)
            #expect(envelope.encryptedData.count % 32 == 0)
        }
        for field in [envelope.encryptedData, envelope.encryptedKey, envelope.iv] {
            #expect(field.allSatisfy { "0123456789abcdef".contains($0) })
        }
    }

    @Test func aSHA1FingerprintNamesTheSameKey() throws {
        let key = Self.keys[0]
        let encryptor = try MDESPayloadEncryptor(publicKeyPEM: try key.publicKeyPEM, options: .init(fingerprint: .sha1))
        let envelope = try encryptor.seal(Self.plaintext)
        #expect(envelope.publicKeyFingerprint.count == 40)
        let opened = try MDESPayloadDecrypter(keys: [key]).decrypt(Self.wire(envelope))
        #expect(opened.plaintext == Self.plaintext && opened.keyFingerprint == key.publicKeyFingerprint)
    }

    @Test func everyPayloadHasItsOwnKeyAndIV() throws {
        let encryptor = try MDESPayloadEncryptor(publicKeyPEM: try Self.keys[0].publicKeyPEM)
        let first = try encryptor.seal(Self.plaintext)
        let second = try encryptor.seal(Self.plaintext)
        #expect(first.encryptedKey != second.encryptedKey && first.iv != second.iv)
        #expect(first.encryptedData != second.encryptedData)
    }

    /// The bare RSA operation OAEP-SHA-512 rests on, against BoringSSL's private operation.
    @Test func rsaPublicOperationInvertsThePrivateOne() throws {
        let key = Self.keys[0]
        let signing = try _RSA.Signing.PrivateKey(pemRepresentation: key.privateKeyPEM)
        let primitives = try signing.publicKey.getKeyPrimitives()
        let operation = try RSAPublicOperation(modulus: primitives.modulus, publicExponent: primitives.publicExponent)
        var message = [UInt8](repeating: 0, count: operation.modulusByteCount)
        for index in 1..<message.count { message[index] = UInt8(truncatingIfNeeded: index &* 37) }
        let encrypted = try operation.apply(message)
        let blind = try _RSA.BlindSigning.PrivateKey<SHA384>(pemRepresentation: key.privateKeyPEM)
        #expect(Array(try blind.blindSignature(for: encrypted).rawRepresentation) == message)
    }

    @Test func refusesWhatIsNotAnRSAPublicKey() {
        #expect(throws: ProvisioError.self) { try MDESPayloadEncryptor(publicKeyPEM: "not a key") }
        let p256 = P256.Signing.PrivateKey().publicKey.pemRepresentation
        #expect(throws: ProvisioError.self) { try MDESPayloadEncryptor(publicKeyPEM: p256) }
        #expect(throws: ProvisioError.self) {
            try MDESPayloadEncryptor(publicKeyPEM: try Self.keys[0].publicKeyPEM, options: .init(aesKeyBits: 192))
        }
    }

    static func wire(_ envelope: MDESEnvelope) -> MDESEncryptedPayload {
        MDESEncryptedPayload(
            encryptedData: envelope.encryptedData, encryptedKey: envelope.encryptedKey,
            publicKeyFingerprint: envelope.publicKeyFingerprint, oaepHashingAlgorithm: envelope.oaepHashingAlgorithm,
            iv: envelope.iv, algorithmCipherMode: envelope.algorithmCipherMode, tag: envelope.tag, aad: envelope.aad)
    }
}

extension MDESEnvelopeOptions: CustomTestStringConvertible {
    public var testDescription: String { "\(keyWrapping.rawValue)/\(cipherMode.rawValue)/AES-\(aesKeyBits)" }
}
