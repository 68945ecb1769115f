import Foundation

extension OpenPGPMessage {
    /// Decrypts a message (binary, or armoured "PGP MESSAGE") with one of `recipientKeys`,
    /// checks its modification detection code, and verifies its signature with one of
    /// `signers`' keys as valid when it was made and not expired at `time`.
    ///
    /// A message must be encrypted with integrity protection and signed: anything less is an
    /// error. Signatures by keys not among `signers` are passed over (Google asks partners to
    /// accept payloads with several signatures); one by a known signer that does not verify
    /// fails the whole message.
    public static func open<Message: DataProtocol>(
        _ message: Message, recipientKeys: [OpenPGPSecretKey], signers: [OpenPGPPublicKey], at time: Date,
        limits: OpenPGPLimits = .default
    ) throws(OpenPGPError) -> OpenPGPOpenedMessage {
        let bytes = try OpenPGPArmor.binary(message, expecting: .message, limits: limits)
        let (sessionKeys, encrypted) = try outerLayer(PacketReader.packets(in: bytes, limits: limits), limits: limits)
        let inner = try decrypt(encrypted, sessionKeys: sessionKeys, recipientKeys: recipientKeys)
        let packets = try innerPackets(inner, limits: limits)
        return try verify(packets, signers: signers, at: UInt64(max(0, time.timeIntervalSince1970)), limits: limits)
    }

    /// The session key packets and the encrypted data packet (RFC 9580 §10.3: ESK* then SEIPD).
    private static func outerLayer(_ packets: [Packet], limits: OpenPGPLimits) throws(OpenPGPError) -> (
        [SessionKeyPacket], Packet
    ) {
        var sessionKeys: [SessionKeyPacket] = []
        var encrypted: Packet?
        for packet in packets {
            guard encrypted == nil else { throw OpenPGPError(.unexpectedPacket, "packets after the encrypted data") }
            switch packet.tag {
            case .marker, .padding, .symmetricKeyEncryptedSessionKey:
                // A password-encrypted session key is for someone with the password, not for us.
                continue
            case .publicKeyEncryptedSessionKey:
                try limits.check(sessionKeys.count + 1, against: limits.maximumRecipients, "session key packets")
                sessionKeys.append(try SessionKeyPacket.read(packet.body, limits: limits))
            case .symmetricallyEncryptedIntegrityProtectedData:
                encrypted = packet
            case .symmetricallyEncryptedData:
                throw OpenPGPError(.unsupportedPacket, "data encrypted without integrity protection")
            case .aeadEncryptedData:
                throw OpenPGPError(.unsupportedPacket, "AEAD encrypted data (RFC 4880bis drafts)")
            case .literalData, .compressedData, .onePassSignature, .signature:
                throw OpenPGPError(.unexpectedPacket, "a message that is not encrypted")
            default:
                throw OpenPGPError(.unexpectedPacket, "a packet of type \(packet.rawTag) in a message")
            }
        }
        guard let encrypted else { throw OpenPGPError(.unexpectedPacket, "a message without encrypted data") }
        return (sessionKeys, encrypted)
    }

    /// Finds the session key packets addressed to one of the keys and decrypts the data with
    /// the first that yields data whose MDC matches. A session key that does not decrypt is
    /// replaced by a random one, so it fails exactly as a tampered ciphertext does.
    private static func decrypt(
        _ encrypted: Packet, sessionKeys: [SessionKeyPacket], recipientKeys: [OpenPGPSecretKey]
    ) throws(OpenPGPError) -> [UInt8] {
        var candidates: [(SessionKeyPacket, PublicKeyPacket, RSASecretMaterial)] = []
        for key in recipientKeys {
            for component in key.publicKey.certificate.components where component.can(KeyComponent.encrypt) {
                guard let secret = key.secret(for: component) else { continue }
                for sessionKey in sessionKeys
                where sessionKey.algorithm == component.packet.algorithm
                    && (sessionKey.keyID == component.packet.keyID || sessionKey.isWildcard)
                {
                    candidates.append((sessionKey, component.packet, secret))
                }
            }
        }
        guard !candidates.isEmpty else {
            throw OpenPGPError(.notForRecipient, "the message is not encrypted to any of the given keys")
        }
        for (sessionKey, key, secret) in candidates {
            var generator = SystemRandomNumberGenerator()
            let (cipher, keyBytes) =
                sessionKey.decrypt(with: key, secret: secret)
                ?? (.aes256, (0..<32).map { _ in generator.next() })
            if let inner = try EncryptedDataPacket.open(encrypted.body, cipher: cipher, sessionKey: keyBytes) { return inner }
        }
        throw OpenPGPError(.integrityCheckFailed, "the encrypted data or its session key was modified or corrupted")
    }

    /// The decrypted packets, inflated when they are one compressed packet (bounded in depth
    /// and output).
    private static func innerPackets(_ inner: [UInt8], limits: OpenPGPLimits) throws(OpenPGPError) -> [Packet] {
        var packets = try PacketReader.packets(in: inner, limits: limits)
        var depth = 0
        while packets.count == 1, packets[0].tag == .compressedData {
            depth += 1
            try limits.check(depth, against: limits.maximumCompressionDepth, "nested compressed packets")
            var reader = ByteReader(packets[0].body)
            let algorithm = try reader.byte()
            let content = reader.rest()
            // Room for the literal data and the packets around it (one-pass and signatures).
            let cap = limits.maximumPlaintextBytes + 1024 * (limits.maximumSignatures + 1)
            switch OpenPGPCompression(rawValue: algorithm) {
            case .uncompressed?:
                packets = try PacketReader.packets(in: content, limits: limits)
            case let algorithm?:
                packets = try PacketReader.packets(in: Deflate.decompress(content, algorithm, maximumOutput: cap), limits: limits)
            case nil:
                throw OpenPGPError(.unsupportedAlgorithm, "compression algorithm \(algorithm) (ZIP and ZLIB are read)")
            }
        }
        return packets.filter { $0.tag != .marker && $0.tag != .padding }
    }
}
