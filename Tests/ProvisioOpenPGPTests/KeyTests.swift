import Foundation
import Testing

@testable import ProvisioOpenPGP

/// What reading a key checks: self-signatures, secret checksums, protection, shapes.
@Suite struct KeyTests {
    private var publicPackets: [Packet] {
        get throws { try PacketReader.packets(in: Array(TestKeys.wallet.publicKey.binary), limits: .default) }
    }

    private func publicKeyCode(_ packets: [Packet]) -> OpenPGPError.Code? {
        TestKeys.code { () throws(OpenPGPError) in try OpenPGPPublicKey(Packet.encode(packets)) }
    }

    private func flippedLastByte(_ packet: Packet) -> Packet {
        var body = packet.body
        body[body.count - 1] ^= 0x01
        return Packet(rawTag: packet.rawTag, body: body)
    }

    @Test func aKeyWithoutAValidSelfSignatureIsInvalid() throws {
        var packets = try publicPackets  // primary, user ID, certification, subkey, binding
        packets[2] = flippedLastByte(packets[2])
        #expect(publicKeyCode(packets) == .invalidKey)
        #expect(publicKeyCode([packets[0]]) == .invalidKey)
    }

    @Test func aSubkeyWithABrokenBindingIsLeftOut() throws {
        var packets = try publicPackets
        packets[4] = flippedLastByte(packets[4])
        let key = try OpenPGPPublicKey(Packet.encode(packets))
        #expect(key.keyFingerprints == [key.fingerprint])
        let code = TestKeys.code { () throws(OpenPGPError) in
            try OpenPGPMessage.seal(TestKeys.card, signer: TestKeys.issuer, recipients: [key], at: TestKeys.now)
        }
        #expect(code == .keyUnusable)
    }

    @Test func theEncryptionCheckAgreesWithSealing() throws {
        let wallet = TestKeys.wallet.publicKey
        try wallet.checkEncryption(at: TestKeys.now)
        // Without its encryption subkey (left out for a broken binding), a key that may only sign
        // cannot be encrypted to, and the check says so as sealing does.
        var packets = try publicPackets
        packets[4] = flippedLastByte(packets[4])
        let signOnly = try OpenPGPPublicKey(Packet.encode(packets))
        #expect(TestKeys.code { () throws(OpenPGPError) in try signOnly.checkEncryption(at: TestKeys.now) } == .keyUnusable)
        // Before the key existed, and after it expired, nothing can be encrypted to it.
        let before = TestKeys.created.addingTimeInterval(-60)
        let expired = try #require(wallet.expiration).addingTimeInterval(60)
        for time in [before, expired] {
            #expect(TestKeys.code { () throws(OpenPGPError) in try wallet.checkEncryption(at: time) } == .keyUnusable)
        }
    }

    @Test func signaturesOfOtherVersionsArePassedOver() throws {
        var packets = try publicPackets
        // A version 3 certification by someone else, after the self-signature; and a trust packet.
        packets.insert(Packet(.signature, body: [3, 5, 0x10, 0, 0, 0, 0]), at: 3)
        packets.insert(Packet(.trust, body: [0, 0]), at: 3)
        let key = try OpenPGPPublicKey(Packet.encode(packets))
        #expect(key.fingerprint == TestKeys.wallet.fingerprint)
        #expect(key.binary != Data(Packet.encode(packets)))  // the trust packet is not exported
    }

    @Test func keysOfOtherVersionsOrAlgorithmsAreUnsupported() throws {
        var packets = try publicPackets
        var version5 = packets[0].body
        version5[0] = 5
        packets[0] = Packet(.publicKey, body: version5)
        #expect(publicKeyCode(packets) == .unsupportedPacket)
        var ed25519 = try publicPackets[0].body
        ed25519[5] = 27
        #expect(publicKeyCode([Packet(.publicKey, body: ed25519)]) == .unsupportedAlgorithm)
        #expect(publicKeyCode(try publicPackets.dropFirst().map { $0 }) == .unexpectedPacket)
        #expect(publicKeyCode(try publicPackets + [Packet(.literalData, body: [0x62, 0, 0, 0, 0, 0])]) == .unexpectedPacket)
    }

    @Test func secretKeyChecksumAndProtectionAreChecked() throws {
        let packets = try PacketReader.packets(in: Array(TestKeys.wallet.binary), limits: .default)
        let corrupted = [flippedLastByte(packets[0])] + packets.dropFirst()
        #expect(TestKeys.code { () throws(OpenPGPError) in try OpenPGPSecretKey(Packet.encode(corrupted)) } == .invalidKey)
        // S2K usage 254 (a passphrase, AES-128, iterated and salted S2K) after the public part.
        var reader = ByteReader(packets[0].body)
        let publicPart = try PublicKeyPacket.read(&reader, limits: .default).body
        let protected =
            [Packet(.secretKey, body: publicPart + [254, 7, 3, 2] + [UInt8](repeating: 1, count: 40))]
            + packets.dropFirst()
        #expect(
            TestKeys.code { () throws(OpenPGPError) in try OpenPGPSecretKey(Packet.encode(protected)) } == .secretKeyProtected)
    }

    @Test func generationRefusesSizesOutsideRSAsUsefulRange() {
        for bits in [1024, 2047, 16384] {
            let code = TestKeys.code { () throws(OpenPGPError) in
                try OpenPGPSecretKey.generateRSA(userID: "x", bits: bits, creationTime: TestKeys.now)
            }
            #expect(code == .keyUnusable)
        }
    }
}
