/// A version 3 public-key encrypted session key packet (RFC 9580 §5.1) for RSA: the recipient
/// key's ID (zeros for "any key") and m^e mod n, m being the algorithm, the session key and
/// its checksum, padded with EME-PKCS1-v1_5.
struct SessionKeyPacket: Sendable {
    let keyID: [UInt8]
    let algorithm: UInt8
    let value: MPI

    var isWildcard: Bool { keyID.allSatisfy { $0 == 0 } }

    static func read(_ body: [UInt8], limits: OpenPGPLimits) throws(OpenPGPError) -> SessionKeyPacket {
        var reader = ByteReader(body)
        let version = try reader.byte()
        guard version == 3 else {
            throw OpenPGPError(.unsupportedPacket, "a version \(version) session key packet (this module reads version 3)")
        }
        let keyID = Array(try reader.take(8))
        let algorithm = try reader.byte()
        guard PublicKeyAlgorithm(rawValue: algorithm)?.isRSA == true else {
            // Another algorithm's fields cannot be read; the packet is for someone else.
            return SessionKeyPacket(keyID: keyID, algorithm: algorithm, value: MPI(unsigned: []))
        }
        let value = try MPI.read(&reader, maximumBits: limits.maximumKeyBits)
        guard reader.isAtEnd else { throw OpenPGPError(.malformedPacket, "bytes after a session key") }
        return SessionKeyPacket(keyID: keyID, algorithm: algorithm, value: value)
    }

    /// Encrypts `sessionKey` for `recipient`.
    static func make(
        sessionKey: [UInt8], cipher: OpenPGPSymmetricAlgorithm, recipient: PublicKeyPacket
    ) throws(OpenPGPError) -> SessionKeyPacket {
        guard let rsa = recipient.rsa else {
            throw OpenPGPError(.unsupportedAlgorithm, "encryption to \(PublicKeyAlgorithm.name(recipient.algorithm))")
        }
        var message = [cipher.rawValue] + sessionKey
        message.appendUInt16(checksum(sessionKey))
        return SessionKeyPacket(keyID: recipient.keyID, algorithm: recipient.algorithm, value: try rsa.encrypt(message))
    }

    var body: [UInt8] { [3] + keyID + [algorithm] + value.encoded }

    /// The session key and its cipher, or nil when decryption, the algorithm or the checksum
    /// fails (the caller treats all of those alike).
    func decrypt(with key: PublicKeyPacket, secret: RSASecretMaterial) -> (OpenPGPSymmetricAlgorithm, [UInt8])? {
        guard let rsa = key.rsa, let message = secret.decrypt(value, modulusByteCount: rsa.modulusByteCount),
            message.count >= 3, let cipher = OpenPGPSymmetricAlgorithm(rawValue: message[0]),
            message.count == cipher.keyByteCount + 3
        else { return nil }
        let sessionKey = Array(message[1..<message.count - 2])
        let sum = Int(message[message.count - 2]) << 8 | Int(message[message.count - 1])
        return sum == Self.checksum(sessionKey) ? (cipher, sessionKey) : nil
    }

    private static func checksum(_ key: [UInt8]) -> Int { key.reduce(0) { ($0 + Int($1)) & 0xFFFF } }
}
