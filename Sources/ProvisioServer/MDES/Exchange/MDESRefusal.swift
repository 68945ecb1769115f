import HTTPTypes
import ProvisioMDESIssuerAPI

/// The `errorCode` values of the MDES error shape, as Provisio's document declares them
/// (Mastercard's published codes and Provisio's `UNSUPPORTED_OPERATION`; docs/mdes.md).
public typealias MDESErrorCode = ProvisioMDESIssuerAPI.Components.Schemas.MdesErrorCode

/// Why Provisio refuses an MDES request: a stable `errorCode`, a description that names a field
/// at most (never a value MDES sent), and the HTTP status. A value, thrown by the handlers and
/// turned into `{"responseId", "errorCode", "errorDescription"}` by `MDESExchangeMiddleware`.
public struct MDESRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: MDESErrorCode
    public var errorDescription: String
    public var status: HTTPResponse.Status

    public init(_ code: MDESErrorCode, _ errorDescription: String, status: HTTPResponse.Status = .badRequest) {
        self.code = code
        self.errorDescription = errorDescription
        self.status = status
    }

    public var description: String { "MDESRefusal(\(code.rawValue): \(errorDescription))" }

    static func missing(_ field: String) -> MDESRefusal {
        MDESRefusal(.missingRequiredField, "Missing Required Field - \(field)")
    }

    static func format(_ field: String) -> MDESRefusal {
        MDESRefusal(.invalidFieldFormat, "Invalid Field Format - \(field)")
    }

    static func length(_ field: String) -> MDESRefusal {
        MDESRefusal(.invalidFieldLength, "Invalid Field Length - \(field)")
    }

    static func value(_ field: String) -> MDESRefusal {
        MDESRefusal(.invalidFieldValue, "Invalid Field Value - \(field)")
    }

    /// One answer for every payload that does not open, whatever failed (no padding oracle).
    static let cryptography = MDESRefusal(.cryptographyError, "The encrypted payload could not be decrypted.")

    static let internalFailure = MDESRefusal(
        .internalServiceFailure, "The issuer could not complete the request.", status: .internalServerError)
}
