import Foundation
import Testing

@testable import ProvisioOpenPGP

@Suite struct TamperingTests {
    private func flipped(_ message: Data, at offset: Int) -> Data {
        var copy = message
        copy[offset] ^= 0x01
        return copy
    }

    @Test func aFlipAnywhereInTheCiphertextFailsTheIntegrityCheck() throws {
        let message = try TestKeys.seal()
        let range = try Forge.ciphertextRange(of: message)
        let offsets = [
            ("random prefix", range.lowerBound), ("repeated prefix octets", range.lowerBound + 17),
            ("one-pass signature", range.lowerBound + 20), ("literal data", range.lowerBound + 60),
            ("signature value", range.upperBound - 60), ("MDC packet header", range.upperBound - 22),
            ("MDC hash", range.upperBound - 10), ("last octet", range.upperBound - 1),
        ]
        for (region, offset) in offsets {
            let code = TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(flipped(message, at: offset)) }
            #expect(code == .integrityCheckFailed, "flipped in the \(region)")
        }
    }

    @Test func aCorruptedSessionKeyFailsLikeATamperedCiphertext() throws {
        let message = try TestKeys.seal()
        // PKESK: 3-octet header, version, key ID (8), algorithm, MPI length (2), then m^e mod n.
        let code = TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(flipped(message, at: 100)) }
        #expect(code == .integrityCheckFailed)
        let otherKeyID = TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(flipped(message, at: 5)) }
        #expect(otherKeyID == .notForRecipient)
    }

    @Test func aTruncatedMessageIsMalformed() throws {
        let message = try TestKeys.seal()
        for length in [1, 10, message.count - 1] {
            let code = TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message.prefix(length)) }
            #expect(code == .malformedPacket, "\(length) bytes")
        }
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(Data()) } == .unexpectedPacket)
    }

    @Test func anotherRecipientsKeyIsNotForUs() throws {
        let message = try TestKeys.seal(to: [TestKeys.otherWallet.publicKey])
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message) } == .notForRecipient)
    }

    @Test func anotherIssuersSignatureIsAnUnknownSigner() throws {
        let message = try TestKeys.seal(signer: TestKeys.otherIssuer)
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message) } == .unknownSigner)
        // The same message opens for whoever trusts that issuer.
        #expect(try TestKeys.open(message, signers: [TestKeys.otherIssuer.publicKey]).data == TestKeys.card)
    }

    @Test func aSignatureOverOtherDataIsBad() throws {
        let signature = try Forge.signature(over: Array("other data".utf8))
        let message = try Forge.encrypt(Forge.signedInner(signature))
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message) } == .badSignature)
    }

    @Test func aFlippedSignatureValueIsBad() throws {
        let signature = try Forge.signature(over: Array(TestKeys.card))
        var value = signature.value.bytes
        value[value.count / 2] ^= 0x01
        let message = try Forge.encrypt(Forge.signedInner(Forge.withValue(signature, value)))
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message) } == .badSignature)
        // The untouched signature opens: the forge itself is sound.
        #expect(try TestKeys.open(Forge.encrypt(Forge.signedInner(signature))).data == TestKeys.card)
    }

    @Test func aSignatureFromAfterTheKeyExpiredIsBad() throws {
        let late = TestKeys.created.addingTimeInterval(400 * 24 * 3600)
        let message = try Forge.encrypt(Forge.signedInner(Forge.signature(over: Array(TestKeys.card), at: late)))
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message) } == .badSignature)
    }

    @Test func aCriticalSubpacketOfUnknownMeaningMakesTheSignatureBad() throws {
        let signature = try Forge.signature(over: Array(TestKeys.card), extraHashed: [Subpacket(critical: 100, [1])])
        let message = try Forge.encrypt(Forge.signedInner(signature))
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message) } == .badSignature)
    }

    @Test func aSHA1SignatureIsAnUnsupportedAlgorithm() throws {
        let signature = try Forge.signature(over: Array(TestKeys.card))
        let sha1 = SignaturePacket(
            type: 0, publicKeyAlgorithm: 1, hashAlgorithm: 2, hashedArea: signature.hashedArea, hashed: signature.hashed,
            unhashed: signature.unhashed, hashPrefix: signature.hashPrefix, value: signature.value)
        let message = try Forge.encrypt(Forge.signedInner(sha1))
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message) } == .unsupportedAlgorithm)
    }

    @Test func anUnsignedMessageIsRefused() throws {
        let message = try Forge.encrypt(Packet.encode([Forge.literal()]))
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message) } == .unsigned)
    }

    @Test func misshapenInnerMessagesAreUnexpected() throws {
        let signature = Packet(.signature, body: try Forge.signature(over: Array(TestKeys.card)).body)
        let shapes: [[Packet]] = [
            [Forge.onePass(), Forge.literal()],  // a one-pass signature without its signature
            [Forge.onePass(), Forge.literal(), signature, signature],
            [Forge.onePass(), Forge.literal(), signature, Forge.literal()],
            [Forge.onePass(), signature],
            [Packet(.userID, body: [0x41])],
        ]
        for shape in shapes {
            let message = try Forge.encrypt(Packet.encode(shape))
            #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message) } == .unexpectedPacket)
        }
        // Prefixed signatures (signature, then literal) are a valid shape.
        #expect(try TestKeys.open(Forge.encrypt(Packet.encode([signature, Forge.literal()]))).data == TestKeys.card)
    }

    @Test func unencryptedAndUnprotectedMessagesAreRefused() throws {
        let signed = Forge.signedInner(try Forge.signature(over: Array(TestKeys.card)))
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(signed) } == .unexpectedPacket)
        let message = try TestKeys.seal()
        let packets = try PacketReader.packets(in: Array(message), limits: .default)
        let unprotected = Packet.encode([
            packets[0], Packet(.symmetricallyEncryptedData, body: Array(packets[1].body.dropFirst())),
        ])
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(unprotected) } == .unsupportedPacket)
        let version2 = Packet.encode([
            packets[0], Packet(.symmetricallyEncryptedIntegrityProtectedData, body: [2] + packets[1].body.dropFirst()),
        ])
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(version2) } == .unsupportedPacket)
    }

    @Test func bzip2IsAnUnsupportedAlgorithm() throws {
        let message = try Forge.encrypt(Packet(.compressedData, body: [3, 0x42, 0x5A, 0x68]).encoded)
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message) } == .unsupportedAlgorithm)
        let garbage = try Forge.encrypt(Packet(.compressedData, body: [2, 0x78, 0x9C, 0xFF, 0xFF]).encoded)
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(garbage) } == .decompressionFailed)
    }

    @Test func damagedArmourIsRefused() throws {
        let armored = OpenPGPArmor.encode(try TestKeys.seal(), as: .message)
        var lines = armored.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let checksumLine = lines.firstIndex { $0.hasPrefix("=") }!
        lines[checksumLine] = lines[checksumLine] == "=AAAA" ? "=AAAB" : "=AAAA"
        let badChecksum = lines.joined(separator: "\n")
        #expect(TestKeys.code { () throws(OpenPGPError) in try OpenPGPArmor.decode(badChecksum) } == .armorChecksumMismatch)
        let badBase64 = armored.replacingOccurrences(of: "\n\n", with: "\n\n!!")
        #expect(TestKeys.code { () throws(OpenPGPError) in try OpenPGPArmor.decode(badBase64) } == .malformedArmor)
        let wrongEnd = armored.replacingOccurrences(of: "END PGP MESSAGE", with: "END PGP SIGNATURE")
        #expect(TestKeys.code { () throws(OpenPGPError) in try OpenPGPArmor.decode(wrongEnd) } == .malformedArmor)
        let noEnd = armored.replacingOccurrences(of: "-----END PGP MESSAGE-----", with: "")
        #expect(TestKeys.code { () throws(OpenPGPError) in try OpenPGPArmor.decode(noEnd) } == .malformedArmor)
        #expect(TestKeys.code { () throws(OpenPGPError) in try OpenPGPArmor.decode("hello") } == .malformedArmor)
        // Armour of a key where a message is expected.
        let key = Data(TestKeys.issuer.publicKey.armored.utf8)
        #expect(TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(key) } == .unexpectedPacket)
    }

    @Test func armourHeadersAndCRLFAreRead() throws {
        let armored = OpenPGPArmor.encode(try TestKeys.seal(), as: .message)
            .replacingOccurrences(of: "-----\n\n", with: "-----\nVersion: GnuPG v2\nComment: test\n\n")
            .replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try TestKeys.open(Data(armored.utf8)).data == TestKeys.card)
    }
}
