/// A version 4 secret key or secret subkey packet (RFC 9580 §5.5.3), unprotected (S2K usage 0):
/// the public key, then the secret MPIs and their two-octet checksum.
struct SecretKeyPacket: Sendable {
    let publicKey: PublicKeyPacket
    let secret: RSASecretMaterial

    init(publicKey: PublicKeyPacket, secret: RSASecretMaterial) {
        self.publicKey = publicKey
        self.secret = secret
    }

    static func read(_ body: [UInt8], limits: OpenPGPLimits) throws(OpenPGPError) -> SecretKeyPacket {
        var reader = ByteReader(body)
        let publicKey = try PublicKeyPacket.read(&reader, limits: limits)
        guard let rsa = publicKey.rsa else {
            throw OpenPGPError(.unsupportedAlgorithm, "a secret key of \(PublicKeyAlgorithm.name(publicKey.algorithm))")
        }
        let usage = try reader.byte()
        guard usage == 0 else {
            throw OpenPGPError(.secretKeyProtected, "the secret key is protected by a passphrase (export it without one)")
        }
        let start = reader.position
        let d = try MPI.read(&reader, maximumBits: limits.maximumKeyBits)
        let p = try MPI.read(&reader, maximumBits: limits.maximumKeyBits)
        let q = try MPI.read(&reader, maximumBits: limits.maximumKeyBits)
        let u = try MPI.read(&reader, maximumBits: limits.maximumKeyBits)
        let sum = body[start..<reader.position].reduce(0) { ($0 + Int($1)) & 0xFFFF }
        guard try reader.uint16() == sum, reader.isAtEnd else {
            throw OpenPGPError(.invalidKey, "the secret key's checksum does not match")
        }
        return SecretKeyPacket(publicKey: publicKey, secret: try RSASecretMaterial(public: rsa, d: d, p: p, q: q, u: u))
    }

    var body: [UInt8] {
        let secretFields = secret.encoded
        var out = publicKey.body
        out.append(0)
        out.append(contentsOf: secretFields)
        out.appendUInt16(secretFields.reduce(0) { ($0 + Int($1)) & 0xFFFF })
        return out
    }
}
