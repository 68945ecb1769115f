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
        var head = request.head
        // Every operation answers in the one media type the document gives it. The generated code
        // would check `Accept` only after the handler ran (a POST would make its change and then
        // be refused), so, as before the move, Accept is not consulted.
        head.headerFields[.accept] = nil
        var request = Request(head: head, body: request.body)
        guard request.method == .post || request.method == .put || request.method == .patch else {
            return try await next(request, context)
        }
        let buffer = try await RequestBodyReader.collect(&request, context: context)
        // An empty body is the generated decoder's to refuse when the operation needs one.
        guard buffer.readableBytes > 0 else { return try await next(request, context) }
        guard case .object(let object) = try RequestJSON.parse(Data(buffer: buffer)) else {
            throw ProvisioError(.invalidJSON, "The request body must be a JSON object.")
        }
        // A control character in a top-level field is reported naming the field when its key is
        // shaped like the document's field names (lowercase words and underscores, no digits):
        // such a key cannot quote a card number or a secret the caller put there.
        for member in object.members where RequestJSON.containsControlCharacter(member.value) {
            guard Self.isPlainFieldName(member.key) else { break }
            throw ProvisioError(.invalidRequest, "The field '\(member.key)' contains a control character.")
        }
        try RequestJSON.checkText(object)
        return try await next(request, context)
    }

    static func isPlainFieldName(_ key: String) -> Bool {
        (1...64).contains(key.utf8.count)
            && key.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") }
    }
}
