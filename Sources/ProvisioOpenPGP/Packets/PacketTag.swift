/// Packet types (RFC 9580 §5, "Packet Type IDs") this module reads or writes.
enum PacketTag: UInt8, Sendable {
    case publicKeyEncryptedSessionKey = 1
    case signature = 2
    case symmetricKeyEncryptedSessionKey = 3
    case onePassSignature = 4
    case secretKey = 5
    case publicKey = 6
    case secretSubkey = 7
    case compressedData = 8
    case symmetricallyEncryptedData = 9
    case marker = 10
    case literalData = 11
    case trust = 12
    case userID = 13
    case publicSubkey = 14
    case userAttribute = 17
    case symmetricallyEncryptedIntegrityProtectedData = 18
    case modificationDetectionCode = 19
    case aeadEncryptedData = 20
    case padding = 21

    /// Only data packets may use partial body lengths (RFC 9580 §4.2.1.4).
    var allowsPartialLengths: Bool {
        switch self {
        case .compressedData, .symmetricallyEncryptedData, .literalData,
            .symmetricallyEncryptedIntegrityProtectedData, .aeadEncryptedData:
            true
        default: false
        }
    }
}
