import Crypto
import Foundation

/// A version 4 public key or public subkey packet (RFC 9580 §5.5.2.3): creation time,
/// algorithm and key material, with the fingerprint and key ID derived from them (§5.5.4.2).
struct PublicKeyPacket: Hashable, Sendable {
    /// The packet body as read or written: the fingerprint and every signature over this key
    /// hash exactly these bytes.
    let body: [UInt8]
    let creationTime: UInt32
    let algorithm: UInt8
    /// The RSA modulus and exponent; nil for an algorithm this module does not implement.
    let rsa: RSAPublicMaterial?
    let fingerprint: [UInt8]

    var keyID: [UInt8] { Array(fingerprint.suffix(8)) }

    init(creationTime: UInt32, rsa: RSAPublicMaterial) {
        var body: [UInt8] = [4]
        body.appendUInt32(creationTime)
        body.append(PublicKeyAlgorithm.rsa.rawValue)
        body.append(contentsOf: rsa.modulus.encoded)
        body.append(contentsOf: rsa.exponent.encoded)
        self.body = body
        self.creationTime = creationTime
        self.algorithm = PublicKeyAlgorithm.rsa.rawValue
        self.rsa = rsa
        self.fingerprint = Self.fingerprint(of: body)
    }

    /// Parses the public part of a key packet from `reader`; a secret key packet goes on from
    /// where this stops.
    static func read(_ reader: inout ByteReader, limits: OpenPGPLimits) throws(OpenPGPError) -> PublicKeyPacket {
        var copy = reader
        let start = reader.remaining
        let version = try reader.byte()
        guard version == 4 else {
            throw OpenPGPError(.unsupportedPacket, "a version \(version) key (this module reads version 4 keys)")
        }
        let creationTime = try reader.uint32()
        let algorithm = try reader.byte()
        var rsa: RSAPublicMaterial?
        if PublicKeyAlgorithm(rawValue: algorithm)?.isRSA == true {
            let modulus = try MPI.read(&reader, maximumBits: limits.maximumKeyBits)
            let exponent = try MPI.read(&reader, maximumBits: limits.maximumKeyBits)
            rsa = RSAPublicMaterial(modulus: modulus, exponent: exponent)
        } else {
            // Unknown material: its extent is unknowable, so it must be the whole (public) packet.
            _ = reader.rest()
        }
        let body = Array(try copy.take(start - reader.remaining))
        return PublicKeyPacket(body: body, creationTime: creationTime, algorithm: algorithm, rsa: rsa)
    }

    private init(body: [UInt8], creationTime: UInt32, algorithm: UInt8, rsa: RSAPublicMaterial?) {
        self.body = body
        self.creationTime = creationTime
        self.algorithm = algorithm
        self.rsa = rsa
        self.fingerprint = Self.fingerprint(of: body)
    }

    /// The key as it enters a signature's hash or a fingerprint: 0x99, a two-octet length, the body.
    var hashPrefix: [UInt8] {
        var out: [UInt8] = [0x99]
        out.appendUInt16(body.count)
        return out
    }

    private static func fingerprint(of body: [UInt8]) -> [UInt8] {
        var hasher = Insecure.SHA1()
        var prefix: [UInt8] = [0x99]
        prefix.appendUInt16(body.count)
        hasher.update(data: prefix)
        hasher.update(data: body)
        return Array(hasher.finalize())
    }
}
