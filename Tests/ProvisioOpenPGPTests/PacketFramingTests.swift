import Foundation
import Testing

@testable import ProvisioOpenPGP

/// RFC 9580 §4.2's header formats and lengths, as GnuPG and other writers use them.
@Suite struct PacketFramingTests {
    private func read(_ bytes: [UInt8]) throws(OpenPGPError) -> [Packet] {
        try PacketReader.packets(in: bytes, limits: .default)
    }

    @Test func everyCurrentFormatLengthRoundTrips() throws {
        for count in [0, 1, 191, 192, 8383, 8384, 70_000] {
            let packet = Packet(.literalData, body: [UInt8](repeating: 9, count: count))
            let read = try read(packet.encoded)
            #expect(read.count == 1 && read[0].body.count == count && read[0].tag == .literalData)
        }
    }

    @Test func partialBodyLengthsAreJoined() throws {
        // 512 + 1 + 3: a partial chunk of 2^9, one of 2^0, then a definite 3.
        let body = (0..<516).map { UInt8($0 & 0xFF) }
        var bytes: [UInt8] = [0xC0 | 11, 0xE9]
        bytes += body[0..<512]
        bytes += [0xE0]
        bytes += body[512..<513]
        bytes += [3]
        bytes += body[513...]
        #expect(try read(bytes).first?.body == body)
        // Only data packets may be partial.
        #expect(TestKeys.code { () throws(OpenPGPError) in try read([0xC0 | 13, 0xE0, 0x41, 0]) } == .malformedPacket)
    }

    @Test func legacyFormatHeadersAreRead() throws {
        let oneOctet: [UInt8] = [0x80 | 13 << 2 | 0, 2, 0x41, 0x42]
        let twoOctets: [UInt8] = [0x80 | 13 << 2 | 1, 0, 1, 0x43]
        let fourOctets: [UInt8] = [0x80 | 13 << 2 | 2, 0, 0, 0, 1, 0x44]
        let indeterminate: [UInt8] = [0x80 | 8 << 2 | 3, 0, 1, 2, 3]
        let packets = try read(oneOctet + twoOctets + fourOctets + indeterminate)
        #expect(packets.map(\.rawTag) == [13, 13, 13, 8])
        #expect(packets.map(\.body) == [[0x41, 0x42], [0x43], [0x44], [0, 1, 2, 3]])
        #expect(TestKeys.code { () throws(OpenPGPError) in try read([0x80 | 13 << 2 | 3, 1]) } == .malformedPacket)
    }

    @Test func lengthsPastTheEndAndBadHeadersAreMalformed() {
        for bytes: [UInt8] in [[0xC0 | 13, 5, 1], [0xC0 | 13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x00], [0xC0 | 13]] {
            #expect(TestKeys.code { () throws(OpenPGPError) in try read(bytes) } == .malformedPacket)
        }
    }

    @Test func mpisMustFitTheirBitCount() throws {
        var exact = ByteReader([0, 9, 0x01, 0xFF])
        #expect(try MPI.read(&exact, maximumBits: 64).bitCount == 9)
        var tooLong = ByteReader([0, 1, 0xFF])
        #expect(TestKeys.code { () throws(OpenPGPError) in try MPI.read(&tooLong, maximumBits: 64) } == .malformedPacket)
        var tooBig = ByteReader([0, 65] + [UInt8](repeating: 1, count: 9))
        #expect(TestKeys.code { () throws(OpenPGPError) in try MPI.read(&tooBig, maximumBits: 64) } == .limitExceeded)
    }

    @Test func armourChecksumIsCRC24() {
        // RFC 4880 §6.1's CRC-24 of "123456789" is 0x21CF02.
        #expect(CRC24.checksum(Array("123456789".utf8)) == 0x21_CF02)
    }
}
