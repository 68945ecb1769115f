/// The `errorCode` values of the MDES error shape (docs/mdes.md): Mastercard's published codes,
/// plus Provisio's `UNSUPPORTED_OPERATION`.
public enum MDESErrorCode: String, Sendable, Hashable, CaseIterable {
    case invalidJSON = "INVALID_JSON"
    case missingRequiredField = "MISSING_REQUIRED_FIELD"
    case invalidFieldFormat = "INVALID_FIELD_FORMAT"
    case invalidFieldLength = "INVALID_FIELD_LENGTH"
    case invalidFieldValue = "INVALID_FIELD_VALUE"
    case cryptographyError = "CRYPTOGRAPHY_ERROR"
    case internalServiceFailure = "INTERNAL_SERVICE_FAILURE"
    case unsupportedOperation = "UNSUPPORTED_OPERATION"
}
