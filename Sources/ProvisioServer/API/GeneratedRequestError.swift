import Foundation
import OpenAPIRuntime
import ProvisioCore

/// What the generated server code throws for a request it cannot read, as the wire's stable
/// codes: a field the operation does not declare is `unknown_field` (never named: it is the
/// caller's invention), a missing or mistyped field `invalid_request` naming the field, a value
/// outside a documented set the field's own code where it has one.
enum GeneratedRequestError {
    /// The field's own code for a value outside its documented set (`encryption_scheme` →
    /// `unsupported_encryption_scheme`); other fields get `invalid_request`.
    static let valueCodes: [String: ProvisioError.Code] = [:]

    /// A handler's own `ProvisioError` travels inside `ServerError` too and comes out as it is.
    static func provisioError(for error: ServerError) -> ProvisioError {
        switch error.underlyingError {
        case let error as ProvisioError:
            return error
        case let error as DecodingError:
            return provisioError(for: error)
        default:
            if error.httpStatus == .unsupportedMediaType {
                return ProvisioError(.invalidRequest, "The request body must be application/json.")
            }
            if error.httpStatus.kind == .clientError {
                return ProvisioError(.invalidRequest, "The request is not valid for this endpoint.")
            }
            return ProvisioError(.internalError, "The server could not complete the request.")
        }
    }

    static func provisioError(for error: DecodingError) -> ProvisioError {
        switch error {
        case .keyNotFound(let key, let context):
            return ProvisioError(.invalidRequest, "The field '\(path(context.codingPath + [key]))' is required.")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return ProvisioError(.invalidRequest, "The field '\(path(context.codingPath))' has the wrong type.")
        case .dataCorrupted(let context):
            if context.debugDescription.hasPrefix("Additional properties are disabled") {
                // The path ends with the unknown key; what comes before is the declared object.
                let parent = context.codingPath.dropLast().last(where: { $0.intValue == nil })
                guard let parent else {
                    return ProvisioError(.unknownField, "The request body has a field this endpoint does not accept.")
                }
                return ProvisioError(
                    .unknownField, "The object '\(parent.stringValue)' has a field this endpoint does not accept.")
            }
            let field = context.codingPath.last(where: { $0.intValue == nil })?.stringValue
            if let field, let code = valueCodes[field] {
                return ProvisioError(code, "The field '\(field)' has a value this endpoint does not accept.")
            }
            return ProvisioError(.invalidRequest, "The field '\(path(context.codingPath))' is not valid.")
        @unknown default:
            return ProvisioError(.invalidRequest, "The request body does not match this endpoint.")
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
