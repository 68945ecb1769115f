import Foundation

/// An OpenPGP secret key (a transferable secret key, RFC 9580 §10.2): the public key with the
/// unprotected RSA secrets of its primary key and subkeys.
///
/// Its description, debug description and mirror show the fingerprint only, never a secret
/// number, so the key cannot leak through a log line, `dump` or string interpolation.
public struct OpenPGPSecretKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let publicKey: OpenPGPPublicKey
    /// The secrets by the fingerprint of the key they belong to.
    let secrets: [[UInt8]: RSASecretMaterial]

    init(publicKey: OpenPGPPublicKey, secrets: [[UInt8]: RSASecretMaterial]) {
        self.publicKey = publicKey
        self.secrets = secrets
    }

    /// Reads a key from its binary packets or their armour ("PGP PRIVATE KEY BLOCK"), as
    /// `gpg --export-secret-keys` writes it for a key without a passphrase.
    public init<Bytes: DataProtocol>(_ input: Bytes, limits: OpenPGPLimits = .default) throws(OpenPGPError) {
        let bytes = try OpenPGPArmor.binary(input, expecting: .privateKey, limits: limits)
        let packets = try PacketReader.packets(in: bytes, limits: limits)
        guard packets.first?.tag == .secretKey else {
            throw OpenPGPError(.unexpectedPacket, "a key that does not start with a secret key packet")
        }
        var publicPackets: [Packet] = []
        var secrets: [[UInt8]: RSASecretMaterial] = [:]
        for packet in packets {
            switch packet.tag {
            case .secretKey, .secretSubkey:
                let secret: SecretKeyPacket
                do {
                    secret = try SecretKeyPacket.read(packet.body, limits: limits)
                } catch let error where error.code == .unsupportedAlgorithm && packet.tag == .secretSubkey {
                    // A subkey this module cannot use is left out, with its binding signatures.
                    publicPackets.append(Packet(.trust, body: []))
                    continue
                }
                secrets[secret.publicKey.fingerprint] = secret.secret
                publicPackets.append(Packet(packet.tag == .secretKey ? .publicKey : .publicSubkey, body: secret.publicKey.body))
            case .publicKey, .publicSubkey:
                throw OpenPGPError(.unexpectedPacket, "a public key packet inside a secret key")
            default:
                publicPackets.append(packet)
            }
        }
        let certificate = try Certificate(packets: Self.withoutOrphanedSignatures(publicPackets), limits: limits)
        self.init(publicKey: OpenPGPPublicKey(certificate: certificate), secrets: secrets)
    }

    /// Signatures after a left-out subkey (marked by a placeholder) are left out with it.
    private static func withoutOrphanedSignatures(_ packets: [Packet]) -> [Packet] {
        var out: [Packet] = []
        var skipping = false
        for packet in packets {
            if packet.tag == .trust && packet.body.isEmpty {
                skipping = true
            } else if packet.tag != .signature {
                skipping = false
                out.append(packet)
            } else if !skipping {
                out.append(packet)
            }
        }
        return out
    }

    public var fingerprint: String { publicKey.fingerprint }

    /// The binary transferable secret key, unprotected: store it as a secret.
    public var binary: Data {
        let packets = publicKey.certificate.packets.map { packet in
            guard packet.tag == .publicKey || packet.tag == .publicSubkey else { return packet }
            var reader = ByteReader(packet.body)
            guard let key = try? PublicKeyPacket.read(&reader, limits: .default), let secret = secrets[key.fingerprint] else {
                return packet
            }
            let body = SecretKeyPacket(publicKey: key, secret: secret).body
            return Packet(packet.tag == .publicKey ? .secretKey : .secretSubkey, body: body)
        }
        return Data(Packet.encode(packets))
    }

    /// The key in ASCII armour, as `gpg --export-secret-keys --armor` writes it.
    public var armored: String { OpenPGPArmor.encode(binary, as: .privateKey) }

    func secret(for component: KeyComponent) -> RSASecretMaterial? { secrets[component.packet.fingerprint] }

    public var description: String { "OpenPGPSecretKey(\(fingerprint))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["fingerprint": fingerprint], displayStyle: .struct) }
}
