import ProvisioCore

/// `algorithmCipherMode` of an MDES encryptedPayload.
public enum MDESCipherMode: String, Sendable {
    case gcm = "GCM"
    case cbc = "CBC"

    /// The field as sent. Absent means CBC: the document describes the encrypted data as AES-CBC
    /// with PKCS#7 padding and adds GCM through this field (Provisio's reading; not stated as a
    /// default). Anything else is refused rather than guessed.
    init(field: String?) throws {
        guard let field else {
            self = .cbc
            return
        }
        guard let mode = MDESCipherMode(rawValue: field) else {
            throw ProvisioError(.mdesPayloadMalformed, "algorithmCipherMode is neither GCM nor CBC.")
        }
        self = mode
    }

    /// The IV length the document requires: 12 bytes for GCM, one AES block for CBC.
    var ivByteCount: Int {
        switch self {
        case .gcm: 12
        case .cbc: 16
        }
    }
}
