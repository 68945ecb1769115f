import Foundation
import HTTPTypes
import OpenAPIRuntime
import ProvisioCore

/// What the generated server code throws for a request it cannot read, as the wire's stable
/// codes: a field the operation does not declare is `unknown_field` (never named: it is the
/// caller's invention), a missing or mistyped field `invalid_request` naming the field, a value
/// outside a documented set the field's own code where it has one.
enum GeneratedRequestError {
    /// The field's own code for a value outside its documented set (`encryption_scheme` →
    /// `unsupported_encryption_scheme`); other fields get `invalid_request`.
    static let valueCodes: [String: ProvisioError.Code] = [
        "action": .invalidParameter,  // TokenTransitionRequest
        "mode": .invalidParameter,  // TokenActivationRequest
        "events": .invalidParameter,  // CreateWebhookEndpointRequest
        "event": .invalidParameter,  // NetworkTokenEventRequest
        "wallet_recommendation": .invalidRiskAssessment,  // NetworkTokenRequest.risk
        "device_type": .invalidDeviceType,
        "wallet": .invalidWallet,  // ProvisionTokenRequest
    ]

    /// A handler's own `ProvisioError` travels inside `ServerError` too and comes out as it is.
    static func provisioError(for error: ServerError) -> ProvisioError {
        switch error.underlyingError {
        case let error as ProvisioError:
            return error
        case let decodingError as DecodingError:
            if let refusal = queryParameterError(decodingError, request: error.request) { return refusal }
            // Unreadable JSON at the root: `StrictBodyMiddleware` has parsed every non-empty body,
            // so this is an empty one where the operation takes a body. (A date the transcoder
            // cannot read is also corrupted data at an empty path, with another description.)
            if case .dataCorrupted(let context) = decodingError, context.codingPath.isEmpty,
                context.debugDescription.hasPrefix("The given data was not valid JSON")
            {
                return emptyBodyRefusal()
            }
            return provisioError(for: decodingError)
        default:
            if let name = missingQueryParameter(error) {
                return ProvisioError(.invalidParameter, "The query parameter \(name) is required.")
            }
            // An empty body where the operation takes one: what the strict parser says of no bytes.
            if error.causeDescription == "Missing required request body" { return emptyBodyRefusal() }
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

    /// A query parameter's value the generated code could not read as its type. Query values are
    /// decoded at the root (an empty coding path; a body's fields never are, bodies being
    /// objects), and the only query parameter the document types as other than a string is
    /// `limit`.
    static func queryParameterError(_ error: DecodingError, request: HTTPRequest) -> ProvisioError? {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found): context = found
        case .keyNotFound: return nil
        @unknown default: return nil
        }
        guard context.codingPath.isEmpty, let query = request.path?.split(separator: "?", maxSplits: 1).dropFirst().first
        else { return nil }
        // A required parameter left out of a query that has others (`/v1/tokens?limit=5`); the
        // decoder does not name it.
        if case .valueNotFound = error {
            return ProvisioError(.invalidParameter, "A required query parameter is missing.")
        }
        let names = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first ?? "" }
        guard names.contains("limit") else { return nil }
        return ProvisioError(.invalidParameter, "limit must be an integer.")
    }

    /// The name of a required query parameter the request left out (the generated code says
    /// so only in its description of the cause).
    static func missingQueryParameter(_ error: ServerError) -> String? {
        let prefix = "Missing required query parameter named: "
        guard error.causeDescription.hasPrefix(prefix) else { return nil }
        return String(error.causeDescription.dropFirst(prefix.count))
    }

    /// What the strict parser says of a body with no bytes (`invalid_json`), as the hand-written
    /// routes answered it.
    static func emptyBodyRefusal() -> ProvisioError {
        do {
            _ = try RequestJSON.parse(Data())
        } catch let refusal as ProvisioError {
            return refusal
        } catch {}
        return ProvisioError(.invalidJSON, "The request body must be a JSON object.")
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
