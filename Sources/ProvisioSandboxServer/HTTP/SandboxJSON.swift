import Foundation
import Hummingbird
import ProvisioCore
import ProvisioSandbox

/// Strict JSON in, snake_case JSON out. A request body must be a JSON object of exactly the
/// fields its type declares: malformed JSON, an unknown field, a missing or mistyped field or a
/// word outside a field's vocabulary is 400 `sandbox_invalid_request` naming the field, so a
/// misspelt field is never silently ignored.
enum SandboxJSON {
    static func decode<Body: SandboxWireRequest>(_ type: Body.Type, from request: Request, context: SandboxRequestContext)
        async throws -> Body
    {
        try decode(type, from: try await body(of: request, context: context), allowEmpty: false)
    }

    /// For bodies that may be left out entirely (no body means `{}`).
    static func decodeOptional<Body: SandboxWireRequest>(
        _ type: Body.Type, from request: Request, context: SandboxRequestContext
    ) async throws -> Body {
        try decode(type, from: try await body(of: request, context: context), allowEmpty: true)
    }

    static func decode<Body: SandboxWireRequest>(_ type: Body.Type, from data: Data, allowEmpty: Bool) throws -> Body {
        let data = allowEmpty && data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) ? Data("{}".utf8) : data
        // The strict parser refuses a key given twice (decoders disagree on which one wins).
        let parsed: JSONValue
        do {
            parsed = try StrictJSONParser.parse(data)
        } catch {
            throw invalid("The request body must be a JSON object. \(error.provisioError.message)")
        }
        guard case .object(let fields) = parsed else {
            throw invalid("The request body must be a JSON object.")
        }
        // Unknown fields are refused without repeating them: nothing the caller sent is echoed.
        if !fields.unknownKeys(allowed: Body.fieldNames).isEmpty {
            let accepted = Body.fieldNames.sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw invalid(
                "The request body has a field this endpoint does not take"
                    + (accepted.isEmpty ? "; it takes no fields." : "; it takes \(accepted)."))
        }
        do {
            return try SandboxWire.makeDecoder().decode(Body.self, from: data)
        } catch DecodingError.keyNotFound(let key, _) {
            throw invalid("The field '\(key.stringValue)' is required.")
        } catch DecodingError.valueNotFound(_, let context) {
            throw invalid("The field '\(path(context))' must not be null.")
        } catch DecodingError.typeMismatch(_, let context) {
            throw invalid("The field '\(path(context))' has the wrong type.")
        } catch DecodingError.dataCorrupted(let context) {
            let field = path(context)
            if let allowed = Body.allowedValues[field] {
                throw invalid("The field '\(field)' must be one of \(allowed.joined(separator: ", ")).")
            }
            throw invalid("The field '\(field)' is not valid.")
        } catch {
            throw invalid("The request body does not match this endpoint.")
        }
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let body = try SandboxWire.makeEncoder().encode(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func invalid(_ message: String) -> ProvisioError {
        ProvisioError(.sandboxInvalidRequest, message)
    }

    /// The whole body, up to the limit; over it is 413.
    private static func body(of request: Request, context: SandboxRequestContext) async throws -> Data {
        var request = request
        do {
            return Data(try await request.collectBody(upTo: context.maxUploadSize).readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw SandboxErrorMiddleware.payloadTooLarge()
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }
}
