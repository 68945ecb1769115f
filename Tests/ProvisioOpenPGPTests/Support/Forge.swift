import Foundation

@testable import ProvisioOpenPGP

/// Builds messages the module would never write (bad signatures, odd shapes) out of its own
/// packet types, encrypted properly, so a test reaches the check it means to reach.
enum Forge {
    static func encrypt(_ inner: [UInt8], to key: OpenPGPPublicKey = TestKeys.wallet.publicKey) throws -> Data {
        let recipient = try key.certificate.encryptionKey(at: UInt64(TestKeys.now.timeIntervalSince1970)).packet
        let sessionKey = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let sessionKeyPacket = try SessionKeyPacket.make(sessionKey: sessionKey, cipher: .aes256, recipient: recipient)
        let encrypted = try EncryptedDataPacket.seal(inner, cipher: .aes256, sessionKey: sessionKey)
        return Data(
            Packet.encode([
                Packet(.publicKeyEncryptedSessionKey, body: sessionKeyPacket.body),
                Packet(.symmetricallyEncryptedIntegrityProtectedData, body: encrypted),
            ]))
    }

    static var signingKey: (PublicKeyPacket, RSASecretMaterial) {
        let component = try! TestKeys.issuer.publicKey.certificate.signingKey(at: UInt64(TestKeys.now.timeIntervalSince1970))
        return (component.packet, TestKeys.issuer.secret(for: component)!)
    }

    static func signature(
        over data: [UInt8], at time: Date = TestKeys.now, extraHashed: [Subpacket] = []
    ) throws -> SignaturePacket {
        let (key, secret) = signingKey
        return try SignaturePacket.make(
            type: .binaryDocument, hash: .sha384, key: key, secret: secret,
            creationTime: UInt32(time.timeIntervalSince1970), extraHashed: extraHashed
        ) { $0.update(data) }
    }

    static func onePass() -> Packet {
        let (key, _) = signingKey
        let packet = OnePassSignaturePacket(
            type: 0, hashAlgorithm: OpenPGPHashAlgorithm.sha384.rawValue, publicKeyAlgorithm: 1, keyID: key.keyID, isLast: true)
        return Packet(.onePassSignature, body: packet.body)
    }

    static func literal(_ data: [UInt8] = Array(TestKeys.card)) -> Packet {
        Packet(.literalData, body: LiteralDataPacket(format: UInt8(ascii: "b"), fileName: [], date: 0, data: data[...]).body)
    }

    /// One-pass signature, literal, signature: the signature made by `signature`.
    static func signedInner(_ signature: SignaturePacket, data: [UInt8] = Array(TestKeys.card)) -> [UInt8] {
        Packet.encode([onePass(), literal(data), Packet(.signature, body: signature.body)])
    }

    /// The same signature with another value (the hash prefix left as it was).
    static func withValue(_ signature: SignaturePacket, _ value: [UInt8]) -> SignaturePacket {
        SignaturePacket(
            type: signature.type, publicKeyAlgorithm: signature.publicKeyAlgorithm, hashAlgorithm: signature.hashAlgorithm,
            hashedArea: signature.hashedArea, hashed: signature.hashed, unhashed: signature.unhashed,
            hashPrefix: signature.hashPrefix, value: MPI(unsigned: value))
    }

    /// The encrypted data packet's ciphertext range within a message this module sealed.
    static func ciphertextRange(of message: Data) throws -> Range<Int> {
        let packets = try PacketReader.packets(in: Array(message), limits: .default)
        let body = packets.last!.body
        return (message.count - body.count + 1)..<message.count
    }
}
