import Foundation
import Hummingbird
import ProvisioCore

/// Reads a request body once, within the limits, and holds it to the strict JSON rules before
/// any generated decoder sees it: malformed JSON, a key twice in one object (at any depth), a
/// body that is not an object, a control character in any text, and null anywhere are refused
/// here. Unknown fields are refused by the generated types (`additionalProperties: false`) and
/// reported by `GeneratedRequestError`. Requests without a body pass untouched.
struct StrictBodyMiddleware: RouterMiddleware {
    typealias Context = ProvisioRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard request.method == .post || request.method == .put || request.method == .patch else {
            return try await next(request, context)
        }
        var request = request
        let buffer = try await RequestBodyReader.collect(&request, context: context)
        // An empty body is the generated decoder's to refuse when the operation needs one.
        guard buffer.readableBytes > 0 else { return try await next(request, context) }
        guard case .object(let object) = try RequestJSON.parse(Data(buffer: buffer)) else {
            throw ProvisioError(.invalidJSON, "The request body must be a JSON object.")
        }
        try RequestJSON.checkText(object, fieldsAreDeclared: false)
        return try await next(request, context)
    }
}
