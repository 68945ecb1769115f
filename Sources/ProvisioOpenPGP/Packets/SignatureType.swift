/// Signature types (RFC 9580 §5.2.1) this module makes or checks.
enum SignatureType: UInt8, Sendable {
    case binaryDocument = 0x00
    case textDocument = 0x01
    case genericCertification = 0x10
    case personaCertification = 0x11
    case casualCertification = 0x12
    case positiveCertification = 0x13
    case subkeyBinding = 0x18
    case primaryKeyBinding = 0x19
    case directKey = 0x1F
    case keyRevocation = 0x20
    case subkeyRevocation = 0x28
    case certificationRevocation = 0x30

    var isCertification: Bool { (0x10...0x13).contains(rawValue) }
}
