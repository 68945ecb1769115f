import Foundation
import Hummingbird
import ProvisioCore

/// Strict JSON in and out. Requests: malformed JSON is `invalid_json`, a key twice in one
/// object `duplicate_json_key`; a missing or mistyped field is `invalid_request` naming the
/// field; an unknown field, at the top or inside a declared object, is `unknown_field` (a
/// misspelt `pan` must not be silently dropped).
enum JSONCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static func decode<Body: RequestBody>(_ type: Body.Type, from request: Request, context: ProvisioRequestContext)
        async throws -> Body
    {
        var request = request
        let buffer = try await RequestBodyReader.collect(&request, context: context)
        return try decode(type, from: Data(buffer: buffer))
    }

    static func decode<Body: RequestBody>(_ type: Body.Type, from data: Data) throws -> Body {
        guard case .object(let object) = try RequestJSON.parse(data) else {
            throw ProvisioError(.invalidJSON, "The request body must be a JSON object.")
        }
        try RequestJSON.checkShape(object, fields: Body.fields, nested: Body.nestedFields)
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(Body.self, from: data)
        } catch DecodingError.keyNotFound(let key, _) {
            throw ProvisioError(.invalidRequest, "The field '\(key.stringValue)' is required.")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            throw ProvisioError(.invalidRequest, "The field '\(path(context))' has the wrong type.")
        } catch DecodingError.dataCorrupted(let context) {
            throw ProvisioError(.invalidRequest, "The field '\(path(context))' is not valid.")
        } catch let error as ProvisioError {
            throw error
        } catch {
            throw ProvisioError(.invalidRequest, "The request body does not match this endpoint.")
        }
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let body = try encoder.encode(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }
}

/// A request body that lists the JSON fields it accepts, and those of its nested objects.
protocol RequestBody: Decodable {
    static var fields: Set<String> { get }
    /// For each field holding an object (or an array of objects): the keys it may have.
    static var nestedFields: [String: Set<String>] { get }
}

extension RequestBody {
    static var nestedFields: [String: Set<String>] { [:] }
}
