/// A primary key or subkey with what its newest valid self-signature says about it.
struct KeyComponent: Sendable {
    static let certify: UInt8 = 0x01
    static let sign: UInt8 = 0x02
    static let encrypt: UInt8 = 0x04 | 0x08

    let packet: PublicKeyPacket
    /// Key flags (RFC 9580 §5.2.3.29); without the subpacket, what the algorithm allows.
    let flags: UInt8
    /// When the key expires, in seconds since 1970; nil for never.
    let expiration: UInt64?
    let isRevoked: Bool

    init(packet: PublicKeyPacket, selfSignature: SignaturePacket?, isRevoked: Bool) {
        self.packet = packet
        self.isRevoked = isRevoked
        let algorithm = PublicKeyAlgorithm(rawValue: packet.algorithm)
        let implied: UInt8 =
            switch algorithm {
            case .rsa: Self.certify | Self.sign | Self.encrypt
            case .rsaSignOnly: Self.certify | Self.sign
            case .rsaEncryptOnly: Self.encrypt
            default: 0
            }
        // An algorithm this module cannot use gets no capability, whatever its flags say.
        self.flags = packet.rsa == nil ? 0 : (selfSignature?.keyFlags ?? implied) & implied
        if let lifetime = selfSignature?.keyLifetime, lifetime != 0 {
            expiration = UInt64(packet.creationTime) + UInt64(lifetime)
        } else {
            expiration = nil
        }
    }

    init(packet: PublicKeyPacket, flags: UInt8, expiration: UInt64?, isRevoked: Bool) {
        self.packet = packet
        self.flags = flags
        self.expiration = expiration
        self.isRevoked = isRevoked
    }

    func can(_ capability: UInt8) -> Bool { flags & capability != 0 }

    /// Whether the key is in force at `time` (seconds since 1970): created, not expired, not revoked.
    func isValid(at time: UInt64) -> Bool {
        !isRevoked && UInt64(packet.creationTime) <= time && expiration.map { time < $0 } ?? true
    }
}
