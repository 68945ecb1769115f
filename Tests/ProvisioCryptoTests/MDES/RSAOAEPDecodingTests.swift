import Crypto
import Foundation
import ProvisioCore
import Testing
import _CryptoExtras

@testable import ProvisioCrypto

/// Provisio's EME-OAEP decoding (used for SHA-512, which swift-crypto lacks), checked against
/// BoringSSL's OAEP-SHA256 and Python's OAEP-SHA512, and at its edges.
@Suite struct RSAOAEPDecodingTests {
    /// The RSADP output (the encoded block) for a vector's encryptedKey.
    static func encodedBlock(_ vector: MDESVectors.Case) throws -> [UInt8] {
        let record = try #require(MDESVectors.shared.keys.first { $0.name == vector.key })
        let key = try _RSA.BlindSigning.PrivateKey<SHA384>(
            derRepresentation: try _RSA.Encryption.PrivateKey(pemRepresentation: record.privateKeyPKCS8PEM).derRepresentation)
        return Array(try key.blindSignature(for: Fixtures.hex(vector.payload.encryptedKey)).rawRepresentation)
    }

    @Test func decodesOAEPSHA256AsBoringSSLDoes() throws {
        let vectors = MDESVectors.shared.cases.filter { $0.payload.oaepHashingAlgorithm == "SHA256" }
        #expect(vectors.count >= 4)
        for vector in vectors {
            let decoded = RSAOAEPDecoding.decode(try Self.encodedBlock(vector), hash: SHA256.self)
            #expect(decoded.map(BinaryText.lowercaseHex) == vector.aesKeyHex, "\(vector.name)")
        }
    }

    @Test func decodesPythonsOAEPSHA512() throws {
        let vectors = MDESVectors.shared.cases.filter { $0.payload.oaepHashingAlgorithm == "SHA512" }
        #expect(vectors.count >= 4)
        for vector in vectors {
            let block = try Self.encodedBlock(vector)
            #expect(RSAOAEPDecoding.decode(block, hash: SHA512.self).map(BinaryText.lowercaseHex) == vector.aesKeyHex)
            // The same block read with the wrong hash is refused, not misread.
            #expect(RSAOAEPDecoding.decode(block, hash: SHA256.self) == nil)
        }
    }

    /// EME-OAEP encoding with a chosen seed and DB, to reach the decoder's edges.
    static func encode(db: [UInt8], seed: [UInt8], leading: UInt8 = 0) -> [UInt8] {
        let hashLength = SHA512.Digest.byteCount
        let maskedDB = zip(db, RSAOAEPDecoding.mgf1(seed: seed, length: db.count, hash: SHA512.self)).map { $0 ^ $1 }
        let maskedSeed = zip(seed, RSAOAEPDecoding.mgf1(seed: maskedDB, length: hashLength, hash: SHA512.self)).map {
            $0 ^ $1
        }
        return [leading] + maskedSeed + maskedDB
    }

    static func db(message: [UInt8], k: Int, separator: UInt8 = 0x01) -> [UInt8] {
        let lHash = Array(SHA512.hash(data: Data()))
        return lHash + [UInt8](repeating: 0, count: k - message.count - 2 * lHash.count - 2) + [separator] + message
    }

    @Test func acceptsEveryMessageLengthAndRefusesEachBrokenPart() {
        let k = 256
        let seed = [UInt8](repeating: 0xA5, count: 64)
        for length in [0, 1, 16, 32, k - 2 * 64 - 2] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
            #expect(
                RSAOAEPDecoding.decode(Self.encode(db: Self.db(message: message, k: k), seed: seed), hash: SHA512.self) == message
            )
        }
        let message: [UInt8] = Array(repeating: 0x42, count: 32)
        let good = Self.db(message: message, k: k)
        #expect(RSAOAEPDecoding.decode(Self.encode(db: good, seed: seed, leading: 1), hash: SHA512.self) == nil)
        var wrongLabel = good
        wrongLabel[5] ^= 0x80
        #expect(RSAOAEPDecoding.decode(Self.encode(db: wrongLabel, seed: seed), hash: SHA512.self) == nil)
        #expect(
            RSAOAEPDecoding.decode(
                Self.encode(db: Self.db(message: message, k: k, separator: 0x02), seed: seed), hash: SHA512.self) == nil)
        var nonZeroPadding = good
        nonZeroPadding[70] = 0x03
        #expect(RSAOAEPDecoding.decode(Self.encode(db: nonZeroPadding, seed: seed), hash: SHA512.self) == nil)
        var noSeparator = Array(SHA512.hash(data: Data())) + [UInt8](repeating: 0, count: k - 64 - 1 - 64)
        noSeparator[noSeparator.count - 1] = 0
        #expect(RSAOAEPDecoding.decode(Self.encode(db: noSeparator, seed: seed), hash: SHA512.self) == nil)
        // Too short for two hashes and two bytes.
        #expect(RSAOAEPDecoding.decode([UInt8](repeating: 0, count: 129), hash: SHA512.self) == nil)
    }

    @Test func mgf1MatchesItsDefinition() {
        // MGF1(seed, 70) with SHA-256: SHA256(seed ‖ 0) ‖ SHA256(seed ‖ 1) ‖ SHA256(seed ‖ 2), cut to 70 bytes.
        let seed: [UInt8] = Array("seed".utf8)
        let expected = (0..<3).flatMap { counter in Array(SHA256.hash(data: seed + [0, 0, 0, UInt8(counter)])) }
        #expect(RSAOAEPDecoding.mgf1(seed: seed, length: 70, hash: SHA256.self) == Array(expected.prefix(70)))
    }
}
