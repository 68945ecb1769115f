import ProvisioCore

/// Stable codes for every reason a PassKit certificate chain is refused.
extension ProvisioError.Code {
    public static let chainEmpty: Self = "chain_empty"
    public static let chainUndecodableCertificate: Self = "chain_undecodable_certificate"
    public static let chainLeafExtensionMissing: Self = "chain_leaf_extension_missing"
    public static let chainIntermediateMissing: Self = "chain_intermediate_missing"
    public static let chainIntermediateMarkerMissing: Self = "chain_intermediate_marker_missing"
    public static let chainIntermediateNotCA: Self = "chain_intermediate_not_ca"
    public static let chainWrongKeyType: Self = "chain_wrong_key_type"
    public static let chainKeyUsageMissing: Self = "chain_key_usage_missing"
    public static let chainUnhandledCriticalExtension: Self = "chain_unhandled_critical_extension"
    public static let chainUnknownRoot: Self = "chain_unknown_root"
    public static let chainBadSignature: Self = "chain_bad_signature"
    public static let chainExpired: Self = "chain_expired"
    public static let chainNotYetValid: Self = "chain_not_yet_valid"
    public static let trustAnchorInvalid: Self = "trust_anchor_invalid"
}
