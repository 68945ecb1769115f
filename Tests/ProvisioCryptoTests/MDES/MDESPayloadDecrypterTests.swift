import Crypto
import Foundation
import ProvisioCore
import Testing
import _CryptoExtras

@testable import ProvisioCrypto

/// MDES encryptedPayload decryption against vectors Python's `cryptography` produced.
@Suite struct MDESPayloadDecrypterTests {
    static let vectors = MDESVectors.shared
    /// The rotation: the current key and the previous one, both able to decrypt.
    static let decrypter = try! MDESPayloadDecrypter(keys: [
        MDESVectors.issuerKeys["current"]!, MDESVectors.issuerKeys["previous"]!,
    ])

    @Test func theVectorsCoverTheWholeMatrix() {
        var matrix = Set<String>()
        for mode in ["GCM", "CBC"] {
            for wrapping in ["OAEP-SHA256", "OAEP-SHA512", "PKCS1v15"] {
                for bits in [128, 256] { matrix.insert("\(mode)-\(wrapping)-AES\(bits)") }
            }
        }
        #expect(matrix.count == 12)
        #expect(matrix.isSubset(of: Set(Self.vectors.cases.map(\.name))))
        // Both keys of the rotation are exercised, and both AES key sizes really are in the payloads.
        #expect(Set(Self.vectors.cases.map(\.key)) == ["current", "previous"])
        #expect(Set(Self.vectors.cases.map { $0.aesKeyHex.count }) == [32, 64])
    }

    @Test(arguments: vectors.cases) func decryptsTheVector(_ vector: MDESVectors.Case) throws {
        let opened = try Self.decrypter.decrypt(vector.payload)
        #expect(BinaryText.lowercaseHex(opened.plaintext) == vector.plaintextHex)
        #expect(opened.keyFingerprint == MDESVectors.issuerKeys[vector.key]!.publicKeyFingerprint)
        // The plaintext is the JSON the caller parses.
        let json = try JSONSerialization.jsonObject(with: opened.plaintext) as? [String: Any]
        #expect(json?["cardAccountData"] != nil)
    }

    @Test(arguments: vectors.cases) func onlyTheNamedKeyDecrypts(_ vector: MDESVectors.Case) throws {
        let own = try MDESPayloadDecrypter(keys: [MDESVectors.issuerKeys[vector.key]!])
        #expect(try own.decrypt(vector.payload).plaintext == Fixtures.hex(vector.plaintextHex))
        let otherName = vector.key == "current" ? "previous" : "current"
        let other = try MDESPayloadDecrypter(keys: [MDESVectors.issuerKeys[otherName]!])
        #expect(MDESVectors.code { try other.decrypt(vector.payload) } == "mdes_key_unknown")
    }

    @Test(arguments: vectors.bad) func refusesTheBadInput(_ vector: MDESVectors.BadCase) throws {
        let error = try #require(throws: ProvisioError.self) { try Self.decrypter.decrypt(vector.payload) }
        #expect(error.code.rawValue == vector.code)
        // No key material, PAN or decrypted byte in what a caller (or a log) sees.
        #expect(!error.description.contains(MDESVectors.pan))
        #expect(!error.description.localizedCaseInsensitiveContains(vector.payload.encryptedKey.prefix(16)))
        #expect(!error.description.localizedCaseInsensitiveContains(vector.payload.encryptedData.prefix(16)))
    }

    @Test func everyUndecryptablePayloadGetsTheSameAnswer() throws {
        // Padding, key size, tag and wrong key: one code and one message, so no oracle.
        let undecryptable = Self.vectors.bad.filter { $0.code == "mdes_payload_undecryptable" }
        let answers = Set(
            undecryptable.map { vector -> String in
                do {
                    _ = try Self.decrypter.decrypt(vector.payload)
                    return "decrypted"
                } catch {
                    return "\(error)"
                }
            })
        #expect(answers.count == 1)
        #expect(undecryptable.count >= 15)
    }

    @Test func theBadCasesCoverWhatTheBriefNames() {
        let names = Set(Self.vectors.bad.map(\.name))
        for required in [
            "tampered-tag", "wrong-fingerprint", "encrypted-data-not-hex", "bad-padding-zero", "bad-padding-inconsistent",
            "wrapped-key-of-24-bytes-oaep512", "wrapped-key-of-24-bytes-pkcs1", "oaep-sha256-announced-as-sha512",
        ] {
            #expect(names.contains(required), "\(required)")
        }
    }

    @Test func aSwiftSealedPayloadRoundTrips() throws {
        // The same construction from swift-crypto's side, for a key generated here.
        let key = try MDESIssuerKey.generate()
        let aesKey = SymmetricKey(size: .bits256)
        let iv = Data((0..<12).map { UInt8($0) })
        let plaintext = Data(#"{"cardAccountData":{"accountNumber":"5412345678901234"}}"#.utf8)
        let wrapped = try _RSA.Encryption.PublicKey(derRepresentation: key.publicKeyDER)
            .encrypt(aesKey.withUnsafeBytes { Data($0) }, padding: .PKCS1_OAEP_SHA256)
        let sealed = try AES.GCM.seal(plaintext, using: aesKey, nonce: AES.GCM.Nonce(data: iv), authenticating: Data([1, 2]))
        let payload = MDESEncryptedPayload(
            encryptedData: BinaryText.lowercaseHex(sealed.ciphertext), encryptedKey: BinaryText.lowercaseHex(wrapped),
            publicKeyFingerprint: key.publicKeyFingerprint.uppercased(), oaepHashingAlgorithm: "SHA256",
            iv: BinaryText.lowercaseHex(iv), algorithmCipherMode: "GCM", tag: BinaryText.lowercaseHex(sealed.tag),
            aad: "0102")
        #expect(try MDESPayloadDecrypter(keys: [key]).decrypt(payload).plaintext == plaintext)
    }

    @Test func refusesNoKeysAndTheSameKeyTwice() {
        #expect(MDESVectors.code { try MDESPayloadDecrypter(keys: []) } == "mdes_key_invalid")
        let key = MDESVectors.issuerKeys["current"]!
        #expect(MDESVectors.code { try MDESPayloadDecrypter(keys: [key, key]) } == "mdes_key_invalid")
    }

    @Test func decodesThePayloadAsMDESSpellsIt() throws {
        let json = #"""
            {"encryptedData":"00","encryptedKey":"01","publicKeyFingerprint":"02","oaepHashingAlgorithm":"SHA512",
             "iv":"03","algorithmCipherMode":"GCM","tag":"04","aad":"05"}
            """#
        let payload = try JSONDecoder().decode(MDESEncryptedPayload.self, from: Data(json.utf8))
        #expect(
            payload
                == MDESEncryptedPayload(
                    encryptedData: "00", encryptedKey: "01", publicKeyFingerprint: "02", oaepHashingAlgorithm: "SHA512",
                    iv: "03", algorithmCipherMode: "GCM", tag: "04", aad: "05"))
    }
}
