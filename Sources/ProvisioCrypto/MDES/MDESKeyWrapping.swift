import ProvisioCore

/// How MDES wrapped the one-time AES key, from `oaepHashingAlgorithm`.
public enum MDESKeyWrapping: Sendable, Hashable {
    /// RSAES-OAEP, SHA-256 for the hash and MGF1, empty label.
    case oaepSHA256
    /// RSAES-OAEP, SHA-512 for the hash and MGF1, empty label.
    case oaepSHA512
    /// RSAES-PKCS1-v1_5, which the document uses when `oaepHashingAlgorithm` is absent.
    case pkcs1v15

    /// The field as sent: exactly "SHA256" or "SHA512" (the document fixes its length at 6), or
    /// absent. MGF1 with the same hash and an empty label are assumed: the document names one
    /// hash and no label (the same as Mastercard's client-encryption libraries).
    init(field: String?) throws {
        switch field {
        case nil: self = .pkcs1v15
        case "SHA256": self = .oaepSHA256
        case "SHA512": self = .oaepSHA512
        default:
            throw ProvisioError(.mdesPayloadMalformed, "oaepHashingAlgorithm is neither SHA256 nor SHA512.")
        }
    }
}
