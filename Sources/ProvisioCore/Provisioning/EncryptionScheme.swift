/// The encryption schemes PassKit asks for in `PKAddPaymentPassRequestConfiguration`.
public enum EncryptionScheme: String, Codable, Hashable, Sendable, CaseIterable {
    case eccV2 = "ECC_V2"
    case rsaV2 = "RSA_V2"

    /// Parses the wire name; throws `unsupported_encryption_scheme` for anything else.
    public init(wireName: String) throws {
        guard let scheme = Self(rawValue: wireName.uppercased()) else {
            throw ProvisioError(
                .unsupportedEncryptionScheme, "The encryption scheme must be ECC_V2 or RSA_V2.")
        }
        self = scheme
    }
}
