import Foundation
import Hummingbird
import ProvisioCore
import ProvisioJSON

/// Reads a request body once, within the limits, and holds it to the strict JSON rules before
/// any generated decoder sees it: malformed JSON, a key twice in one object (at any depth), a
/// body that is not an object, a control character in any text, and null anywhere are refused
/// here. Unknown fields are refused by the generated types (`additionalProperties: false`) and
/// reported by `GeneratedRequestError`. Requests without a body pass untouched.
public struct StrictBodyMiddleware<Context: WireRequestContext>: RouterMiddleware {
    public let dialect: WireDialect

    public init(dialect: WireDialect) {
        self.dialect = dialect
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var head = request.head
        // Every operation answers in the one media type its document gives it. The generated code
        // would check `Accept` only after the handler ran (a POST would make its change and then
        // be refused), so Accept is not consulted.
        head.headerFields[.accept] = nil
        var request = Request(head: head, body: request.body)
        guard request.method == .post || request.method == .put || request.method == .patch else {
            return try await next(request, context)
        }
        let buffer = try await RequestBodyReader.collect(&request, context: context, dialect: dialect)
        // An empty body is the generated decoder's to refuse when the operation needs one.
        guard buffer.readableBytes > 0 else { return try await next(request, context) }
        // A route allowed a body beyond the parser's standard size (a card product's art, base64
        // in one string) may have strings that long too; every other route keeps the standard.
        let upload = context.maxUploadSize
        let limits =
            upload > StrictJSONParser.Limits.default.maxBytes
            ? StrictJSONParser.Limits(maxBytes: upload, maxStringBytes: upload) : .default
        guard case .object(let object) = try RequestJSON.parse(Data(buffer: buffer), dialect: dialect, limits: limits) else {
            throw ProvisioError(dialect.invalidJSON, "The request body must be a JSON object.")
        }
        try RequestJSON.checkText(object, dialect: dialect)
        return try await next(request, context)
    }
}
