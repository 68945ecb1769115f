import Crypto
import Foundation
import ProvisioCore
import Testing

@testable import ProvisioCrypto

/// The table-driven ECDH must give exactly swift-crypto's shared secret, for any recipient and
/// any valid scalar, and seal what the known-answer vector and the opener expect.
@Suite struct P256KeyAgreementTableTests {
    /// The group order n.
    static let order = Fixtures.hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

    /// Scalars at the edges of the signed 7-bit recoding: single bits, all-ones and alternating
    /// windows, digits of ±64, and the top of the range.
    static let edgeScalars: [[UInt8]] = {
        var scalars: [[UInt8]] = []
        func scalar(_ hex: String) -> [UInt8] {
            let value = [UInt8](Fixtures.hex(String(repeating: "0", count: 64 - hex.count) + hex))
            return value
        }
        for hex in ["1", "2", "3", "3f", "40", "41", "7f", "80", "81", "ff", "100", "3fff", "4000", "7fff"] {
            scalars.append(scalar(hex))
        }
        scalars.append([UInt8](repeating: 0x7f, count: 32))
        scalars.append([UInt8](repeating: 0x80, count: 32))
        scalars.append([UInt8](repeating: 0x55, count: 32))
        scalars.append([UInt8](repeating: 0xaa, count: 32))
        scalars.append([0x80] + [UInt8](repeating: 0, count: 31))  // 2^255
        scalars.append([0x7f] + [UInt8](repeating: 0xff, count: 31))  // 2^255 − 1
        scalars.append([UInt8](repeating: 0x01, count: 32))
        // n − 1, n − 2 and n − 64: the largest scalars, whose top window carries.
        for minus in [1, 2, 64] {
            var value = [UInt8](order)
            var borrow = minus
            for index in value.indices.reversed() where borrow > 0 {
                let digit = Int(value[index]) - borrow
                value[index] = UInt8((digit + 256) % 256)
                borrow = digit < 0 ? 1 : 0
            }
            scalars.append(value)
        }
        return scalars
    }()

    static let generatorX963 = Fixtures.hex(
        "046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
            + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")

    @Test func isAvailableWhereSwiftCryptoLinksTheAssembly() {
        #if os(Linux) && arch(x86_64)
            #expect(P256KeyAgreementTable.isAvailable)
            #expect(P256KeyAgreementTable.variant != nil)
        #else
            #expect(!P256KeyAgreementTable.isAvailable)
            #expect(P256KeyAgreementTable(recipient: P256.KeyAgreement.PrivateKey().publicKey) == nil)
            #expect(P256KeyAgreementTable.variant == nil)
        #endif
    }

    @Test func agreesWithSwiftCryptoForRandomKeys() throws {
        try #require(P256KeyAgreementTable.isAvailable)
        for _ in 0..<4 {
            let recipient = P256.KeyAgreement.PrivateKey()
            let table = try #require(P256KeyAgreementTable(recipient: recipient.publicKey))
            for _ in 0..<250 {
                let ephemeral = P256.KeyAgreement.PrivateKey()
                try expectSameSecret(table: table, ephemeral: ephemeral)
            }
        }
    }

    @Test(arguments: [false, true])
    func agreesWithSwiftCryptoAtTheEdgesOfTheRecoding(recipientIsTheGenerator: Bool) throws {
        try #require(P256KeyAgreementTable.isAvailable)
        let recipient =
            recipientIsTheGenerator
            ? try P256.KeyAgreement.PublicKey(x963Representation: Self.generatorX963)
            : P256.KeyAgreement.PrivateKey().publicKey
        let table = try #require(P256KeyAgreementTable(recipient: recipient))
        for scalar in Self.edgeScalars {
            let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar)
            try expectSameSecret(table: table, ephemeral: ephemeral)
        }
    }

    @Test func sealReproducesTheKnownAnswerWithTheTable() throws {
        try #require(P256KeyAgreementTable.isAvailable)
        let vector = Fixtures.eccVector
        let recipient = try P256.KeyAgreement.PublicKey(x963Representation: Fixtures.hex(vector.leafPublicKeyX963Hex))
        let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: Fixtures.hex(vector.ephemeralPrivateKeyHex))
        let table = try #require(P256KeyAgreementTable(recipient: recipient))
        let secret = table.withSharedSecret(ephemeralKey: ephemeral) { BinaryText.lowercaseHex($0) }
        #expect(secret == vector.sharedSecretHex)
        let sealed = try ECCV2Sealer(table: table).seal(Data(vector.plaintextUTF8.utf8), ephemeralKey: ephemeral)
        #expect(BinaryText.lowercaseHex(sealed.encryptedPassData) == vector.encryptedPassDataHex)
    }

    @Test func theOpenerOpensWhatTheTableSealed() throws {
        try #require(P256KeyAgreementTable.isAvailable)
        let recipient = P256.KeyAgreement.PrivateKey()
        let sealer = ECCV2Sealer(table: try #require(P256KeyAgreementTable(recipient: recipient.publicKey)))
        for length in [0, 1, 269, 4096] {
            let plaintext = Data((0..<length).map { _ in UInt8.random(in: 0...255) })
            #expect(try ECCV2Opener(privateKey: recipient).open(try sealer.seal(plaintext)) == plaintext)
        }
    }

    @Test func aRecipientBuildsItsTableOnTheSecondSealAndKeepsIt() throws {
        let recipient = P256Recipient(P256.KeyAgreement.PrivateKey().publicKey)
        #expect(recipient.tableForSealing() == nil)
        let second = recipient.tableForSealing()
        let third = recipient.tableForSealing()
        if P256KeyAgreementTable.isAvailable {
            let table = try #require(second)
            #expect(third === table)
            #expect(table.recipient.x963Representation == recipient.key.x963Representation)
        } else {
            #expect(second == nil && third == nil)
        }
    }

    @Test func concurrentFirstSealsAllSucceedAndShareOneTable() async throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let shared = P256Recipient(recipient.publicKey)
        let opened = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<32 {
                group.addTask {
                    let plaintext = Data("payload \(index)".utf8)
                    let sealed = try ECCV2Sealer(recipient: shared).seal(plaintext)
                    return try ECCV2Opener(privateKey: recipient).open(sealed) == plaintext
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(opened.count == 32 && opened.allSatisfy { $0 })
        if P256KeyAgreementTable.isAvailable {
            let table = try #require(shared.tableForSealing())
            #expect(shared.tableForSealing() === table)
        }
    }

    /// A table that multiplies another point than the recipient's stands for a swift-crypto whose
    /// internals changed meaning: its self-check must refuse it, and only the first refusal logs.
    @Test func aTableThatDisagreesWithSwiftCryptoIsRefusedAndLoggedOnce() throws {
        try #require(P256KeyAgreementTable.isAvailable)
        let lines = Locked([String]())
        let log = P256TableSelfCheckLog { line in lines.withLock { $0.append(line) } }
        let recipient = P256.KeyAgreement.PrivateKey().publicKey
        for _ in 0..<2 {
            let other = P256.KeyAgreement.PrivateKey().publicKey
            #expect(P256KeyAgreementTable(recipient: recipient, multiplying: other, selfCheckLog: log) == nil)
        }
        #expect(log.failures == 2)
        #expect(lines.value == [P256TableSelfCheckLog.message])
        #expect(P256KeyAgreementTable(recipient: recipient, multiplying: recipient, selfCheckLog: log) != nil)
        #expect(log.failures == 2)
    }

    /// (0, y₀) is on the curve; (p, y₀) is the same point written with x ≥ p, and only the range
    /// check refuses it. The others fail the curve equation.
    @Test func createRefusesPointsOffTheCurveOrOutOfRange() throws {
        try #require(P256KeyAgreementTable.isAvailable)
        let y0 = "66485c780e2f83d72433bd5d84a06bb6541c2af31dae871728bf856a174f93f4"
        let p = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
        let zero = String(repeating: "0", count: 64)
        func point(_ x: String, _ y: String) -> [UInt8] { [0x04] + [UInt8](Fixtures.hex(x + y)) }
        #expect(P256KeyAgreementTable.acceptsPoint(x963: [UInt8](Self.generatorX963)))
        #expect(P256KeyAgreementTable.acceptsPoint(x963: point(zero, y0)))

        var offCurve = [UInt8](Self.generatorX963)
        offCurve[64] ^= 1
        #expect(!P256KeyAgreementTable.acceptsPoint(x963: offCurve))
        #expect(!P256KeyAgreementTable.acceptsPoint(x963: point(p, y0)))
        #expect(!P256KeyAgreementTable.acceptsPoint(x963: point(zero, zero)))
        #expect(!P256KeyAgreementTable.acceptsPoint(x963: point(String(repeating: "f", count: 64), y0)))
    }

    /// The table calls swift-crypto's internals, whose names and meanings are verified for one
    /// minor version: the manifest must not let a fresh clone resolve another without a re-check.
    @Test func swiftCryptoIsPinnedToTheVerifiedMinorVersion() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let line = try #require(manifest.split(separator: "\n").first { $0.contains("apple/swift-crypto.git") })
        #expect(line.contains(".upToNextMinor(from: \"4.5.2\")"))
    }

    @Test func wipeZeroesEveryByte() {
        var bytes = [UInt8](repeating: 0xa5, count: 45)
        bytes.withUnsafeMutableBytes { P256KeyAgreementTable.wipe($0) }
        #expect(bytes == [UInt8](repeating: 0, count: 45))
    }

    private func expectSameSecret(table: P256KeyAgreementTable, ephemeral: P256.KeyAgreement.PrivateKey) throws {
        let expected = try ephemeral.sharedSecretFromKeyAgreement(with: table.recipient)
            .withUnsafeBytes { Array($0) }
        let actual = table.withSharedSecret(ephemeralKey: ephemeral) { Array($0) }
        #expect(actual == expected, "scalar \(BinaryText.lowercaseHex(ephemeral.rawRepresentation))")
    }
}
