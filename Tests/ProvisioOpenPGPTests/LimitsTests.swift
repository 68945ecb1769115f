import Foundation
import Testing

@testable import ProvisioOpenPGP

/// Every limit of `OpenPGPLimits`, crossed by one: refused with `limit_exceeded`.
@Suite struct LimitsTests {
    private func limits(_ change: (inout OpenPGPLimits) -> Void) -> OpenPGPLimits {
        var limits = OpenPGPLimits.default
        change(&limits)
        return limits
    }

    private func openCode(_ message: some DataProtocol, _ limits: OpenPGPLimits) -> OpenPGPError.Code? {
        TestKeys.code { () throws(OpenPGPError) in try TestKeys.open(message, limits: limits) }
    }

    @Test func inputBytes() throws {
        let message = try TestKeys.seal()
        #expect(openCode(message, limits { $0.maximumInputBytes = message.count }) == nil)
        #expect(openCode(message, limits { $0.maximumInputBytes = message.count - 1 }) == .limitExceeded)
        let armored = OpenPGPArmor.encode(message, as: .message)
        #expect(
            TestKeys.code { () throws(OpenPGPError) in
                try OpenPGPArmor.decode(armored, limits: limits { $0.maximumInputBytes = 100 })
            }
                == .limitExceeded)
    }

    @Test func plaintextBytes() throws {
        let data = Data(repeating: 7, count: 5000)
        let message = try TestKeys.seal(data)
        #expect(openCode(message, limits { $0.maximumPlaintextBytes = 5000 }) == nil)
        #expect(openCode(message, limits { $0.maximumPlaintextBytes = 4999 }) == .limitExceeded)
    }

    @Test func decompressionBomb() throws {
        // 64 MB of zeros deflate to about 64 KB; the default cap stops inflating at about 1 MB.
        let bomb = try Deflate.compress([UInt8](repeating: 0, count: 64 << 20), .zlib)
        #expect(bomb.count < 100_000)
        let message = try Forge.encrypt(Packet(.compressedData, body: [2] + bomb).encoded)
        #expect(openCode(message, .default) == .limitExceeded)
    }

    @Test func compressionDepth() throws {
        let inner = Forge.signedInner(try Forge.signature(over: Array(TestKeys.card)))
        let once = Packet(.compressedData, body: [2] + (try Deflate.compress(inner, .zlib))).encoded
        let twice = Packet(.compressedData, body: [1] + (try Deflate.compress(once, .zip))).encoded
        #expect(try TestKeys.open(Forge.encrypt(once)).data == TestKeys.card)
        #expect(openCode(try Forge.encrypt(twice), .default) == .limitExceeded)
        #expect(try TestKeys.open(Forge.encrypt(twice), limits: limits { $0.maximumCompressionDepth = 2 }).data == TestKeys.card)
    }

    @Test func packetsInASequence() throws {
        let message = try TestKeys.seal()
        let markers = (0..<64).flatMap { _ in Packet(.marker, body: Array("PGP".utf8)).encoded }
        #expect(openCode(markers.prefix(5 * 62) + message, .default) == nil)
        #expect(openCode(markers + message, .default) == .limitExceeded)
    }

    @Test func recipients() throws {
        let message = try TestKeys.seal(to: [TestKeys.otherWallet.publicKey, TestKeys.wallet.publicKey])
        #expect(openCode(message, limits { $0.maximumRecipients = 2 }) == nil)
        #expect(openCode(message, limits { $0.maximumRecipients = 1 }) == .limitExceeded)
    }

    @Test func signatures() throws {
        let signature = Packet(.signature, body: try Forge.signature(over: Array(TestKeys.card)).body)
        let eight = try Forge.encrypt(Packet.encode(Array(repeating: signature, count: 8) + [Forge.literal()]))
        let nine = try Forge.encrypt(Packet.encode(Array(repeating: signature, count: 9) + [Forge.literal()]))
        #expect(openCode(eight, .default) == nil)
        #expect(openCode(nine, .default) == .limitExceeded)
        let onePasses = try Forge.encrypt(
            Packet.encode(Array(repeating: Forge.onePass(), count: 9) + [Forge.literal()] + Array(repeating: signature, count: 9))
        )
        #expect(openCode(onePasses, .default) == .limitExceeded)
    }

    @Test func subpacketsInASignatureArea() throws {
        let notes = (0..<63).map { _ in Subpacket(.notation, [0x80, 0, 0, 0, 0, 1, 0, 1, 0x61, 0x62]) }
        let atLimit = try Forge.signature(over: Array(TestKeys.card), extraHashed: Array(notes.prefix(62)))
        let over = try Forge.signature(over: Array(TestKeys.card), extraHashed: notes)
        #expect(openCode(try Forge.encrypt(Forge.signedInner(atLimit)), .default) == nil)
        #expect(openCode(try Forge.encrypt(Forge.signedInner(over)), .default) == .limitExceeded)
    }

    @Test func keyBitsAndWeakKeys() throws {
        let message = try TestKeys.seal()
        #expect(openCode(message, limits { $0.maximumKeyBits = 1024 }) == .limitExceeded)
        let key = TestKeys.wallet.publicKey.binary
        #expect(
            TestKeys.code { () throws(OpenPGPError) in try OpenPGPPublicKey(key, limits: limits { $0.maximumKeyBits = 1024 }) }
                == .limitExceeded)
        #expect(
            TestKeys.code { () throws(OpenPGPError) in try OpenPGPPublicKey(key, limits: limits { $0.minimumRSABits = 3072 }) }
                == .keyUnusable)
    }

    @Test func userIDsAndSubkeysOnAKey() throws {
        let key = TestKeys.wallet.publicKey.binary
        #expect(
            TestKeys.code { () throws(OpenPGPError) in try OpenPGPPublicKey(key, limits: limits { $0.maximumKeyComponents = 1 }) }
                == nil)
        #expect(
            TestKeys.code { () throws(OpenPGPError) in try OpenPGPPublicKey(key, limits: limits { $0.maximumKeyComponents = 0 }) }
                == .limitExceeded)
        let packets = try PacketReader.packets(in: Array(key), limits: .default)
        let manyUserIDs = Packet.encode([packets[0]] + (0..<17).flatMap { _ in [packets[1], packets[2]] } + packets[3...])
        #expect(TestKeys.code { () throws(OpenPGPError) in try OpenPGPPublicKey(manyUserIDs) } == .limitExceeded)
    }
}
