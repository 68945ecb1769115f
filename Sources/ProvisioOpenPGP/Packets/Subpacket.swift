/// A signature subpacket (RFC 9580 §5.2.3.7): its type, whether it is critical, and its data.
struct Subpacket: Hashable, Sendable {
    enum Kind: UInt8 {
        case signatureCreationTime = 2
        case signatureExpirationTime = 3
        case keyExpirationTime = 9
        case preferredSymmetricAlgorithms = 11
        case revocationKey = 12
        case issuerKeyID = 16
        case notation = 20
        case preferredHashAlgorithms = 21
        case preferredCompressionAlgorithms = 22
        case keyServerPreferences = 23
        case preferredKeyServer = 24
        case primaryUserID = 25
        case policyURI = 26
        case keyFlags = 27
        case signersUserID = 28
        case reasonForRevocation = 29
        case features = 30
        case signatureTarget = 31
        case embeddedSignature = 32
        case issuerFingerprint = 33
        case intendedRecipientFingerprint = 35
        case preferredAEADCiphersuites = 39
    }

    let type: UInt8
    let isCritical: Bool
    let data: [UInt8]

    init(_ kind: Kind, _ data: [UInt8]) {
        self.type = kind.rawValue
        self.isCritical = false
        self.data = data
    }

    /// A subpacket the reader must understand or else reject its signature.
    init(critical type: UInt8, _ data: [UInt8]) {
        self.init(type: type, isCritical: true, data: data)
    }

    private init(type: UInt8, isCritical: Bool, data: [UInt8]) {
        self.type = type
        self.isCritical = isCritical
        self.data = data
    }

    var kind: Kind? { Kind(rawValue: type) }

    var encoded: [UInt8] {
        var out: [UInt8] = []
        let length = data.count + 1
        switch length {
        case ..<192: out.append(UInt8(length))
        case ..<8384:
            out.append(UInt8((length - 192) >> 8 + 192))
            out.append(UInt8((length - 192) & 0xFF))
        default:
            out.append(0xFF)
            out.appendUInt32(UInt32(length))
        }
        out.append(isCritical ? type | 0x80 : type)
        out.append(contentsOf: data)
        return out
    }

    static func encode(_ subpackets: [Subpacket]) -> [UInt8] {
        subpackets.flatMap(\.encoded)
    }

    static func read(_ area: ArraySlice<UInt8>, limits: OpenPGPLimits) throws(OpenPGPError) -> [Subpacket] {
        var reader = ByteReader(area)
        var subpackets: [Subpacket] = []
        while !reader.isAtEnd {
            try limits.check(subpackets.count + 1, against: limits.maximumSubpackets, "subpackets in a signature area")
            let first = Int(try reader.byte())
            let length: Int
            switch first {
            case ..<192: length = first
            case ..<255: length = (first - 192) << 8 + Int(try reader.byte()) + 192
            default: length = Int(try reader.uint32())
            }
            guard length >= 1 else { throw OpenPGPError(.malformedPacket, "a signature subpacket without a type") }
            var content = ByteReader(try reader.take(length))
            let type = try content.byte()
            subpackets.append(Subpacket(type: type & 0x7F, isCritical: type & 0x80 != 0, data: Array(content.rest())))
        }
        return subpackets
    }
}
