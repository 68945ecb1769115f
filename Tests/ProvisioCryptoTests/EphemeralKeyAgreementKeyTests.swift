import Crypto
import Foundation
import Testing

@testable import ProvisioCrypto

@Suite struct EphemeralKeyAgreementKeyTests {
    /// Hands out the given 64-bit words in order, then fails the test if asked for more.
    struct ScriptedGenerator: RandomNumberGenerator {
        var words: [UInt64]
        mutating func next() -> UInt64 {
            guard !words.isEmpty else {
                Issue.record("The generator was asked for more words than scripted.")
                return 0
            }
            return words.removeFirst()
        }
    }

    /// P-256's group order n, as four big-endian 64-bit words.
    static let order: [UInt64] = [0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0xBCE6_FAAD_A717_9E84, 0xF3B9_CAC2_FC63_2551]

    @Test func takesTheScalarItDrewAndDerivesItsPublicKey() throws {
        let scalar: [UInt64] = [0x0123_4567_89AB_CDEF, 0x0F1E_2D3C_4B5A_6978, 0x1122_3344_5566_7788, 0x99AA_BBCC_DDEE_FF00]
        var generator = ScriptedGenerator(words: scalar)
        let key = EphemeralKeyAgreementKey.generate(using: &generator)
        let expectedBytes = scalar.flatMap { word in withUnsafeBytes(of: word.bigEndian) { Array($0) } }
        #expect(Array(key.rawRepresentation) == expectedBytes)
        let reference = try P256.KeyAgreement.PrivateKey(rawRepresentation: expectedBytes)
        #expect(key.publicKey.x963Representation == reference.publicKey.x963Representation)
    }

    @Test func drawsAgainForZeroTheOrderAndAbove() {
        let valid: [UInt64] = [0, 0, 0, 7]
        var orderPlusOne = Self.order
        orderPlusOne[3] += 1
        var generator = ScriptedGenerator(words: [0, 0, 0, 0] + Self.order + orderPlusOne + valid)
        let key = EphemeralKeyAgreementKey.generate(using: &generator)
        #expect(Array(key.rawRepresentation) == Array(repeating: 0, count: 31) + [7])
        #expect(generator.words.isEmpty)
    }

    @Test func theLargestScalarIsAccepted() {
        var largest = Self.order
        largest[3] -= 1
        var generator = ScriptedGenerator(words: largest)
        let key = EphemeralKeyAgreementKey.generate(using: &generator)
        #expect(Array(key.rawRepresentation.suffix(8)) == withUnsafeBytes(of: largest[3].bigEndian) { Array($0) })
    }

    @Test func systemKeysAreFreshAndAgreeWithTheirPeer() throws {
        let peer = P256.KeyAgreement.PrivateKey()
        let keys = (0..<64).map { _ in EphemeralKeyAgreementKey.generate() }
        #expect(Set(keys.map(\.rawRepresentation)).count == keys.count)
        for key in keys.prefix(4) {
            let ours = try key.sharedSecretFromKeyAgreement(with: peer.publicKey)
            let theirs = try peer.sharedSecretFromKeyAgreement(with: key.publicKey)
            #expect(ours == theirs)
        }
    }
}
