import Foundation

extension OpenPGPMessage {
    /// Signs `plaintext` with `signer`'s signing key and encrypts it to each recipient's
    /// encryption key, as of `time`: a binary message (armour it with `OpenPGPArmor`, or base64
    /// it for Google's opaque payment card).
    public static func seal<Plaintext: DataProtocol>(
        _ plaintext: Plaintext, signer: OpenPGPSecretKey, recipients: [OpenPGPPublicKey], at time: Date,
        options: OpenPGPSealOptions = OpenPGPSealOptions()
    ) throws(OpenPGPError) -> Data {
        guard !recipients.isEmpty else { throw OpenPGPError(.keyUnusable, "a message needs at least one recipient") }
        guard let now = UInt32(exactly: time.timeIntervalSince1970.rounded(.down)) else {
            throw OpenPGPError(.keyUnusable, "a time outside OpenPGP's range")
        }
        let fileName = Array(options.fileName.utf8)
        guard fileName.count <= 255 else { throw OpenPGPError(.limitExceeded, "a file name of more than 255 bytes") }
        let signingKey = try signer.publicKey.certificate.signingKey(at: UInt64(now))
        guard let secret = signer.secret(for: signingKey) else {
            throw OpenPGPError(.keyUnusable, "the signer's signing key has no secret part")
        }
        let encryptionKeys = try recipients.map { (recipient) throws(OpenPGPError) in
            try recipient.certificate.encryptionKey(at: UInt64(now)).packet
        }

        let data = Array(plaintext)
        let onePass = OnePassSignaturePacket(
            type: SignatureType.binaryDocument.rawValue, hashAlgorithm: options.hash.rawValue,
            publicKeyAlgorithm: signingKey.packet.algorithm, keyID: signingKey.packet.keyID, isLast: true)
        let literal = LiteralDataPacket(format: UInt8(ascii: "b"), fileName: fileName, date: now, data: data[...])
        let signature = try SignaturePacket.make(
            type: .binaryDocument, hash: options.hash, key: signingKey.packet, secret: secret, creationTime: now
        ) { hasher in
            hasher.update(data)
        }
        var inner = Packet.encode([
            Packet(.onePassSignature, body: onePass.body), Packet(.literalData, body: literal.body),
            Packet(.signature, body: signature.body),
        ])
        if options.compression != .uncompressed {
            inner =
                Packet(.compressedData, body: [options.compression.rawValue] + (try Deflate.compress(inner, options.compression)))
                .encoded
        }

        var sessionKey = [UInt8](repeating: 0, count: options.cipher.keyByteCount)
        var generator = SystemRandomNumberGenerator()
        for index in sessionKey.indices { sessionKey[index] = generator.next() }
        var packets = try encryptionKeys.map { (key) throws(OpenPGPError) in
            Packet(
                .publicKeyEncryptedSessionKey,
                body: try SessionKeyPacket.make(sessionKey: sessionKey, cipher: options.cipher, recipient: key).body)
        }
        packets.append(
            Packet(
                .symmetricallyEncryptedIntegrityProtectedData,
                body: try EncryptedDataPacket.seal(inner, cipher: options.cipher, sessionKey: sessionKey)))
        return Data(Packet.encode(packets))
    }
}
