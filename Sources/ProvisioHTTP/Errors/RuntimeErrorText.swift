import Foundation
import OpenAPIRuntime

/// The one place Provisio reads another library's English. swift-openapi-runtime (1.13) keeps its
/// `RuntimeError` internal: a `ServerError` says what went wrong only in `causeDescription`, and a
/// generated type refuses an undeclared field with a `DecodingError` whose description is the
/// only sign. Foundation's `JSONDecoder` says "not valid JSON" the same way. Nothing else in the
/// code matches text; `RuntimeErrorTextTests` drives the real runtime and decoder through every
/// case below, so a release that rewords one fails CI instead of changing an answer's code.
public enum RuntimeErrorText {
    public enum Refusal: Equatable, Sendable {
        /// A required query parameter was left out (its name, as the document spells it).
        case missingQueryParameter(String)
        /// The operation takes a body and the request had none.
        case missingRequestBody
    }

    /// What a `ServerError` from the generated server code refuses, when its cause is one the
    /// wire answers with its own code.
    public static func refusal(of error: ServerError) -> Refusal? {
        let cause = error.causeDescription
        let missingQuery = "Missing required query parameter named: "
        if cause.hasPrefix(missingQuery) { return .missingQueryParameter(String(cause.dropFirst(missingQuery.count))) }
        if cause == "Missing required request body" { return .missingRequestBody }
        return nil
    }

    /// A generated type refused a field its schema does not declare
    /// (`additionalProperties: false`); the coding path ends with that field.
    public static func isUndeclaredField(_ context: DecodingError.Context) -> Bool {
        context.debugDescription.hasPrefix("Additional properties are disabled")
    }

    /// `JSONDecoder` found no JSON at all (an empty body decoded at the root).
    public static func isNotJSON(_ context: DecodingError.Context) -> Bool {
        context.debugDescription.hasPrefix("The given data was not valid JSON")
    }
}
