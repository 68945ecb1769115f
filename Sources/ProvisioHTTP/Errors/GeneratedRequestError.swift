import Foundation
import HTTPTypes
import OpenAPIRuntime
import ProvisioCore
import ProvisioJSON

/// What the generated server code throws for a request it cannot read, as the wire's stable
/// codes: a field the operation does not declare is `unknownField` (never named: it is the
/// caller's invention), a missing or mistyped field `invalidRequest` naming the field, a value
/// outside a documented set the field's own refusal where the service has one.
public enum GeneratedRequestError {
    /// A handler's own `ProvisioError` travels inside `ServerError` too and comes out as it is.
    public static func provisioError(for error: ServerError, dialect: WireDialect) -> ProvisioError {
        switch error.underlyingError {
        case let error as ProvisioError:
            return error
        case let decodingError as DecodingError:
            if codingPath(of: decodingError)?.isEmpty == true {
                // Decoded at the root: a path or query parameter (a body is an object, whose
                // fields have a path), or a body with no bytes at all.
                if let refusal = dialect.parameterRefusal(error, decodingError) { return refusal }
                if case .dataCorrupted(let context) = decodingError, RuntimeErrorText.isNotJSON(context) {
                    return emptyBodyRefusal(dialect)
                }
            }
            return provisioError(for: decodingError, dialect: dialect)
        default:
            switch RuntimeErrorText.refusal(of: error) {
            case .missingQueryParameter(let name):
                return ProvisioError(dialect.invalidParameter, "The query parameter \(name) is required.")
            case .missingRequestBody:
                // An empty body where the operation takes one: what the strict parser says of no bytes.
                return emptyBodyRefusal(dialect)
            case nil:
                break
            }
            if error.httpStatus == .unsupportedMediaType {
                return ProvisioError(dialect.invalidRequest, "The request body must be application/json.")
            }
            if error.httpStatus.kind == .clientError {
                return ProvisioError(dialect.invalidRequest, "The request is not valid for this endpoint.")
            }
            return dialect.internalFailure()
        }
    }

    public static func provisioError(for error: DecodingError, dialect: WireDialect) -> ProvisioError {
        switch error {
        case .keyNotFound(let key, let context):
            return ProvisioError(dialect.invalidRequest, "The field '\(path(context.codingPath + [key]))' is required.")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return ProvisioError(dialect.invalidRequest, "The field '\(path(context.codingPath))' has the wrong type.")
        case .dataCorrupted(let context):
            if RuntimeErrorText.isUndeclaredField(context) {
                // The path ends with the unknown key; what comes before is the declared object.
                let parent = context.codingPath.dropLast().last(where: { $0.intValue == nil })
                guard let parent else {
                    return ProvisioError(dialect.unknownField, "The request body has a field this endpoint does not accept.")
                }
                return ProvisioError(
                    dialect.unknownField, "The object '\(parent.stringValue)' has a field this endpoint does not accept.")
            }
            let field = context.codingPath.last(where: { $0.intValue == nil })?.stringValue
            if let field, let refusal = dialect.valueRefusal(field) { return refusal }
            return ProvisioError(dialect.invalidRequest, "The field '\(path(context.codingPath))' is not valid.")
        @unknown default:
            return ProvisioError(dialect.invalidRequest, "The request body does not match this endpoint.")
        }
    }

    /// What the strict parser says of a body with no bytes.
    public static func emptyBodyRefusal(_ dialect: WireDialect) -> ProvisioError {
        do {
            _ = try StrictJSONParser.parse(Data())
        } catch {
            return dialect.bodyRefusal(error.provisioError)
        }
        return ProvisioError(dialect.invalidJSON, "The request body must be a JSON object.")
    }

    /// Where the value that could not be read is; nil for a missing key (which names the field
    /// itself, and is never a parameter's).
    static func codingPath(of error: DecodingError) -> [any CodingKey]? {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath
        case .keyNotFound:
            return nil
        @unknown default:
            return nil
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
