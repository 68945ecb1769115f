import ProvisioCore

/// Stable codes for every reason a PassKit certificate chain is refused.
extension ProvisioError.Code {
    public static let chainEmpty = Self("chain_empty", status: .unprocessableContent)
    public static let chainUndecodableCertificate = Self("chain_undecodable_certificate", status: .unprocessableContent)
    public static let chainLeafExtensionMissing = Self("chain_leaf_extension_missing", status: .unprocessableContent)
    public static let chainIntermediateMissing = Self("chain_intermediate_missing", status: .unprocessableContent)
    public static let chainIntermediateMarkerMissing = Self("chain_intermediate_marker_missing", status: .unprocessableContent)
    public static let chainIntermediateNotCA = Self("chain_intermediate_not_ca", status: .unprocessableContent)
    public static let chainWrongKeyType = Self("chain_wrong_key_type", status: .unprocessableContent)
    public static let chainKeyUsageMissing = Self("chain_key_usage_missing", status: .unprocessableContent)
    public static let chainUnhandledCriticalExtension = Self("chain_unhandled_critical_extension", status: .unprocessableContent)
    public static let chainUnknownRoot = Self("chain_unknown_root", status: .unprocessableContent)
    public static let chainBadSignature = Self("chain_bad_signature", status: .unprocessableContent)
    public static let chainExpired = Self("chain_expired", status: .unprocessableContent)
    public static let chainNotYetValid = Self("chain_not_yet_valid", status: .unprocessableContent)
    public static let trustAnchorInvalid = Self("trust_anchor_invalid", status: .badRequest)
}
