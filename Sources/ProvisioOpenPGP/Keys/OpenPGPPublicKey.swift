import Foundation

/// An OpenPGP public key (a "certificate", RFC 9580 §10.1): a primary RSA key, its user IDs
/// and subkeys, with every self-signature checked when it is read.
///
/// Whether the key may be used is decided when it is used, at the time the caller gives:
/// expiry and revocation are not parse errors.
public struct OpenPGPPublicKey: Sendable, CustomStringConvertible {
    let certificate: Certificate

    init(certificate: Certificate) {
        self.certificate = certificate
    }

    /// Reads a key from its binary packets or their ASCII armour ("PGP PUBLIC KEY BLOCK").
    public init<Bytes: DataProtocol>(_ input: Bytes, limits: OpenPGPLimits = .default) throws(OpenPGPError) {
        let bytes = try OpenPGPArmor.binary(input, expecting: .publicKey, limits: limits)
        let packets = try PacketReader.packets(in: bytes, limits: limits)
        if packets.first?.tag == .secretKey {
            throw OpenPGPError(.unexpectedPacket, "a secret key where a public key was expected")
        }
        certificate = try Certificate(packets: packets, limits: limits)
    }

    /// The primary key's v4 fingerprint in upper-case hexadecimal (40 digits), as GnuPG prints it.
    public var fingerprint: String { hex(certificate.primary.packet.fingerprint) }
    /// The fingerprints of the primary key and of every usable subkey.
    public var keyFingerprints: [String] { certificate.components.map { hex($0.packet.fingerprint) } }
    public var userIDs: [String] { certificate.userIDs }
    /// When the primary key expires; nil if never.
    public var expiration: Date? { certificate.primary.expiration.map { Date(timeIntervalSince1970: TimeInterval($0)) } }

    /// The binary transferable public key.
    public var binary: Data { Data(Packet.encode(certificate.packets)) }
    /// The key in ASCII armour, as `gpg --export --armor` writes it.
    public var armored: String { OpenPGPArmor.encode(binary, as: .publicKey) }

    public var description: String { "OpenPGPPublicKey(\(fingerprint))" }

    /// Throws unless a message sealed at `time` could be encrypted to this key: it has a valid
    /// encryption-capable key then (the one `OpenPGPMessage.seal` picks), of an algorithm this
    /// module encrypts with. Encrypts a throwaway session key to it, the step a seal would take.
    public func checkEncryption(at time: Date) throws(OpenPGPError) {
        guard let now = UInt32(exactly: time.timeIntervalSince1970.rounded(.down)) else {
            throw OpenPGPError(.keyUnusable, "a time outside OpenPGP's range")
        }
        let key = try certificate.encryptionKey(at: UInt64(now))
        let cipher = OpenPGPSymmetricAlgorithm.aes256
        _ = try SessionKeyPacket.make(
            sessionKey: [UInt8](repeating: 0, count: cipher.keyByteCount), cipher: cipher, recipient: key.packet)
    }
}
