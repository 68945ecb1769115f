import Crypto
import Foundation
import ProvisioCore
import Testing
import X509

@testable import ProvisioCrypto

/// ECC_V2 against the public known-answer vector (shared/fixtures/ecc-v2-public-vector.json).
@Suite struct ECCV2KnownAnswerTests {
    let vector = Fixtures.eccVector

    var recipient: P256.KeyAgreement.PublicKey {
        get throws { try P256.KeyAgreement.PublicKey(x963Representation: Fixtures.hex(vector.leafPublicKeyX963Hex)) }
    }
    var ephemeral: P256.KeyAgreement.PrivateKey {
        get throws { try P256.KeyAgreement.PrivateKey(rawRepresentation: Fixtures.hex(vector.ephemeralPrivateKeyHex)) }
    }

    @Test func leafCertificateCarriesTheVectorsRecipientKey() throws {
        let leaf = try Certificate(derEncoded: Array(Data(base64Encoded: vector.leafCertificateDERBase64)!))
        let key = try #require(P256.Signing.PublicKey(leaf.publicKey))
        #expect(BinaryText.lowercaseHex(key.x963Representation) == vector.leafPublicKeyX963Hex)
    }

    @Test func derivesTheVectorsSharedSecretAndKey() throws {
        let ephemeral = try ephemeral
        #expect(BinaryText.lowercaseHex(ephemeral.publicKey.x963Representation) == vector.ephemeralPublicKeyX963Hex)
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: recipient)
        #expect(shared.withUnsafeBytes { BinaryText.lowercaseHex($0) } == vector.sharedSecretHex)

        let kdfInput =
            ECCV2KeyDerivation.counter + Array(Fixtures.hex(vector.sharedSecretHex)) + ECCV2KeyDerivation.algorithmID
            + ECCV2KeyDerivation.partyUInfo + Array(ephemeral.publicKey.x963Representation)
        #expect(BinaryText.lowercaseHex(kdfInput) == vector.kdfInputHex)

        let key = ECCV2KeyDerivation.symmetricKey(
            sharedSecret: shared, ephemeralPublicKey: ephemeral.publicKey.x963Representation)
        #expect(key.withUnsafeBytes { BinaryText.lowercaseHex($0) } == vector.symmetricKeyHex)
    }

    @Test func x963DerivationWouldGiveAnotherKey() throws {
        // Guards against "simplifying" to swift-crypto's X9.63 KDF, which hashes Z ‖ counter.
        let ephemeral = try ephemeral
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: recipient)
        let x963 = shared.x963DerivedSymmetricKey(
            using: SHA256.self,
            sharedInfo: ECCV2KeyDerivation.algorithmID + ECCV2KeyDerivation.partyUInfo
                + Array(ephemeral.publicKey.x963Representation),
            outputByteCount: 32)
        #expect(x963.withUnsafeBytes { BinaryText.lowercaseHex($0) } != vector.symmetricKeyHex)
    }

    @Test func sealReproducesTheVectorsCiphertext() throws {
        #expect(vector.gcmIVHex == "000000000000000000000000")
        let sealed = try ECCV2Sealer(recipient: recipient).seal(Data(vector.plaintextUTF8.utf8), ephemeralKey: ephemeral)
        #expect(BinaryText.lowercaseHex(sealed.encryptedPassData) == vector.encryptedPassDataHex)
        #expect(sealed.encryptedPassData.base64EncodedString() == vector.encryptedPassDataBase64)
        #expect(sealed.keyMaterial == .ephemeralPublicKey(Fixtures.hex(vector.ephemeralPublicKeyX963Hex)))
    }

    @Test func publicSealDrawsAFreshEphemeralKeyEachTime() throws {
        let sealer = try ECCV2Sealer(recipient: recipient)
        let first = try sealer.seal(Data("same".utf8))
        let second = try sealer.seal(Data("same".utf8))
        #expect(first.keyMaterial != second.keyMaterial)
        #expect(first.encryptedPassData != second.encryptedPassData)
    }
}
