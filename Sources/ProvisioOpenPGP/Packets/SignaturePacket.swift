import Foundation

/// A version 4 signature packet (RFC 9580 §5.2.3): what it signs, how, the subpackets of its
/// hashed and unhashed areas, and the RSA signature value.
struct SignaturePacket: Sendable {
    let type: UInt8
    let publicKeyAlgorithm: UInt8
    let hashAlgorithm: UInt8
    let hashedArea: [UInt8]
    let hashed: [Subpacket]
    let unhashed: [Subpacket]
    let hashPrefix: [UInt8]
    let value: MPI

    static func read(_ body: [UInt8], limits: OpenPGPLimits) throws(OpenPGPError) -> SignaturePacket {
        var reader = ByteReader(body)
        let version = try reader.byte()
        guard version == 4 else {
            throw OpenPGPError(.unsupportedPacket, "a version \(version) signature (this module reads version 4)")
        }
        let type = try reader.byte()
        let publicKeyAlgorithm = try reader.byte()
        let hashAlgorithm = try reader.byte()
        let hashedArea = Array(try reader.take(try reader.uint16()))
        let unhashedArea = try reader.take(try reader.uint16())
        let hashPrefix = Array(try reader.take(2))
        var value = MPI(unsigned: [])
        if PublicKeyAlgorithm(rawValue: publicKeyAlgorithm)?.isRSA == true {
            value = try MPI.read(&reader, maximumBits: limits.maximumKeyBits)
            guard reader.isAtEnd else { throw OpenPGPError(.malformedPacket, "bytes after a signature's value") }
        } else {
            _ = reader.rest()
        }
        return SignaturePacket(
            type: type, publicKeyAlgorithm: publicKeyAlgorithm, hashAlgorithm: hashAlgorithm, hashedArea: hashedArea,
            hashed: try Subpacket.read(hashedArea[...], limits: limits),
            unhashed: try Subpacket.read(unhashedArea, limits: limits), hashPrefix: hashPrefix, value: value)
    }

    var body: [UInt8] {
        var out: [UInt8] = [4, type, publicKeyAlgorithm, hashAlgorithm]
        out.appendUInt16(hashedArea.count)
        out.append(contentsOf: hashedArea)
        let unhashedArea = Subpacket.encode(unhashed)
        out.appendUInt16(unhashedArea.count)
        out.append(contentsOf: unhashedArea)
        out.append(contentsOf: hashPrefix)
        out.append(contentsOf: value.encoded)
        return out
    }

    /// What follows the signed data in the hash (RFC 9580 §5.2.4): the hashed part of this
    /// packet, then 0x04 0xFF and that part's length.
    static func trailer(type: UInt8, publicKeyAlgorithm: UInt8, hashAlgorithm: UInt8, hashedArea: [UInt8]) -> [UInt8] {
        var hashedPart: [UInt8] = [4, type, publicKeyAlgorithm, hashAlgorithm]
        hashedPart.appendUInt16(hashedArea.count)
        hashedPart.append(contentsOf: hashedArea)
        var out = hashedPart
        out.append(contentsOf: [0x04, 0xFF])
        out.appendUInt32(UInt32(hashedPart.count))
        return out
    }

    /// Makes a signature: `signed` feeds the hash with what is signed, the trailer follows.
    static func make(
        type: SignatureType, hash: OpenPGPHashAlgorithm, key: PublicKeyPacket, secret: RSASecretMaterial,
        creationTime: UInt32, extraHashed: [Subpacket] = [], signed: (inout OpenPGPHasher) -> Void
    ) throws(OpenPGPError) -> SignaturePacket {
        var creation: [UInt8] = []
        creation.appendUInt32(creationTime)
        let hashed =
            [Subpacket(.signatureCreationTime, creation), Subpacket(.issuerFingerprint, [4] + key.fingerprint)] + extraHashed
        let hashedArea = Subpacket.encode(hashed)
        var hasher = hash.hasher()
        signed(&hasher)
        hasher.update(
            trailer(type: type.rawValue, publicKeyAlgorithm: key.algorithm, hashAlgorithm: hash.rawValue, hashedArea: hashedArea))
        let digest = hasher.finalize()
        return SignaturePacket(
            type: type.rawValue, publicKeyAlgorithm: key.algorithm, hashAlgorithm: hash.rawValue, hashedArea: hashedArea,
            hashed: hashed, unhashed: [Subpacket(.issuerKeyID, key.keyID)], hashPrefix: Array(digest.bytes.prefix(2)),
            value: try secret.sign(digest))
    }

    /// Whether this signature verifies with `key` over what `signed` feeds the hash. A hashed
    /// subpacket marked critical that this module does not know makes it invalid (§5.2.3.7).
    func verify(with key: PublicKeyPacket, signed: (inout OpenPGPHasher) -> Void) throws(OpenPGPError) -> Bool {
        guard let rsa = key.rsa, PublicKeyAlgorithm(rawValue: publicKeyAlgorithm)?.isRSA == true,
            publicKeyAlgorithm == key.algorithm
        else {
            throw OpenPGPError(.unsupportedAlgorithm, "a signature by \(PublicKeyAlgorithm.name(publicKeyAlgorithm))")
        }
        let hash = try OpenPGPHashAlgorithm(id: hashAlgorithm)
        guard hashed.allSatisfy({ !$0.isCritical || Self.understood.contains($0.type) }), creationTime != nil else {
            return false
        }
        var hasher = hash.hasher()
        signed(&hasher)
        hasher.update(
            Self.trailer(type: type, publicKeyAlgorithm: publicKeyAlgorithm, hashAlgorithm: hashAlgorithm, hashedArea: hashedArea)
        )
        let digest = hasher.finalize()
        guard Array(digest.bytes.prefix(2)) == hashPrefix else { return false }
        return rsa.verifies(value, digest: digest)
    }

    /// The subpacket types whose meaning this module applies, so a critical one is acceptable.
    private static let understood: Set<UInt8> = Set(
        [
            .signatureCreationTime, .signatureExpirationTime, .keyExpirationTime, .preferredSymmetricAlgorithms, .issuerKeyID,
            .preferredHashAlgorithms, .preferredCompressionAlgorithms, .keyServerPreferences, .primaryUserID, .keyFlags,
            .features, .embeddedSignature, .issuerFingerprint, .reasonForRevocation,
        ].map { (kind: Subpacket.Kind) in kind.rawValue })

    private func first(_ kind: Subpacket.Kind, hashedOnly: Bool = true) -> [UInt8]? {
        (hashed.first { $0.type == kind.rawValue } ?? (hashedOnly ? nil : unhashed.first { $0.type == kind.rawValue }))?.data
    }

    private static func uint32(_ data: [UInt8]?) -> UInt32? {
        guard let data, data.count == 4 else { return nil }
        return data.reduce(0) { $0 << 8 | UInt32($1) }
    }

    var creationTime: UInt32? { Self.uint32(first(.signatureCreationTime)) }
    /// Seconds after creation when the signature expires; nil or 0 for never.
    var signatureLifetime: UInt32? { Self.uint32(first(.signatureExpirationTime)) }
    /// Seconds after the key's creation when the key expires; nil or 0 for never.
    var keyLifetime: UInt32? { Self.uint32(first(.keyExpirationTime)) }
    var keyFlags: UInt8? { first(.keyFlags)?.first }

    /// The issuer's fingerprint (subpacket 33, version 4) if given, else nil.
    var issuerFingerprint: [UInt8]? {
        guard let data = first(.issuerFingerprint, hashedOnly: false), data.count == 21, data[0] == 4 else { return nil }
        return Array(data.dropFirst())
    }

    /// The issuer's key ID: from subpacket 16, or the end of the issuer fingerprint.
    var issuerKeyID: [UInt8]? {
        if let data = first(.issuerKeyID, hashedOnly: false), data.count == 8 { return data }
        return issuerFingerprint.map { Array($0.suffix(8)) }
    }

    /// Whether `key` is the issuer this signature names (any signature without a name might be).
    func mayBeIssued(by key: PublicKeyPacket) -> Bool {
        if let fingerprint = issuerFingerprint { return fingerprint == key.fingerprint }
        if let keyID = issuerKeyID { return keyID == key.keyID }
        return true
    }

    var embeddedSignatures: [[UInt8]] {
        hashed.filter { $0.type == Subpacket.Kind.embeddedSignature.rawValue }.map(\.data)
            + unhashed.filter { $0.type == Subpacket.Kind.embeddedSignature.rawValue }.map(\.data)
    }

    /// Whether the signature is past its own expiration at `time` (seconds since 1970).
    func isExpired(at time: UInt64) -> Bool {
        guard let created = creationTime, let lifetime = signatureLifetime, lifetime != 0 else { return false }
        return time >= UInt64(created) + UInt64(lifetime)
    }
}
