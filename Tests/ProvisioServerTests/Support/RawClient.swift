import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ProvisioAPI

/// Bytes over the live test connection, for what the generated client cannot send on purpose:
/// bodies that are not JSON or break the schema, unknown fields, values outside an enum, missing
/// or odd headers, other methods, idempotency replays compared byte for byte. Its answers are
/// read as the generated types all the same (`decode`, `error`).
struct RawClient: Sendable {
    typealias Execute = @Sendable (HTTPRequest.Method, String, HTTPFields, ByteBuffer?) async throws -> Response
    private let execute: Execute
    private let connection: ReplacementConnection?
    let port: Int?

    /// Over a connection of its own to the server on `port`, replaced when the server closed it
    /// (`Connection: close`: 413, 408), when a request found it closed, and before it could reach
    /// the server's idle timeout (see `ReplacementConnection`).
    init(port: Int, serverIdleTimeout: Duration) {
        self.port = port
        let connection = ReplacementConnection(port: port, serverIdleTimeout: serverIdleTimeout)
        self.connection = connection
        let once: Execute = { method, path, headers, body in
            let (client, generation) = connection.begin()
            do {
                let response = try await client.execute(.init(path, method: method, headers: headers, body: body))
                connection.end(generation: generation, closed: response.headers[.connection] == "close")
                return Response(
                    status: response.status.code, headers: response.headers, body: Data(buffer: response.body ?? ByteBuffer()))
            } catch {
                connection.end(generation: generation, closed: true)
                throw error
            }
        }
        self.execute = { method, path, headers, body in
            // A few times over: on a loaded machine even a new connection can sit past the
            // server's idle timeout before its request goes out.
            var attempt = 1
            while true {
                do {
                    return try await once(method, path, headers, body)
                } catch ChannelError.ioOnClosedChannel where attempt < Self.attempts {
                    // Nothing was sent: the connection was gone. Again on a new one.
                } catch let error as IOError
                    where Self.isReset(error) && (method == .get || method == .head) && attempt < Self.attempts
                {
                    // The server closed the connection while the request was on its way (the close
                    // and the write crossed): a GET changes nothing, so it goes again on a new
                    // connection, as an HTTP client retries an idempotent request.
                }
                attempt += 1
            }
        }
    }

    /// Closes the connections `init(port:serverIdleTimeout:)` opened.
    func close() async {
        await connection?.shutdown()
    }

    /// How many times a request is sent when its connection turns out closed.
    static let attempts = 3

    /// A connection the peer reset or closed under a write.
    static func isReset(_ error: IOError) -> Bool {
        error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
    }

    /// Over a connection of its own (for requests that must really run in parallel).
    init(connection: TestClient) {
        self.port = nil
        self.connection = nil
        self.execute = { method, path, headers, body in
            let response = try await connection.execute(.init(path, method: method, headers: headers, body: body))
            return Response(
                status: response.status.code, headers: response.headers, body: Data(buffer: response.body ?? ByteBuffer()))
        }
    }

    struct Response: Sendable {
        let status: Int
        let headers: HTTPFields
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }

        /// The body as a generated type (closed objects, enums, strict timestamps).
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try APIJSON.decode(type, from: body)
        }

        /// The error body as the document's `Error` schema; nil when the body is anything else.
        var error: Components.Schemas._Error._ErrorPayload? {
            try? decode(Components.Schemas._Error.self).error
        }

        /// The code of an error body in either of the document's shapes: `Error`, or
        /// `MethodNotAllowedError` for a 405 (whose code is not an `ErrorCode`).
        var refusalCode: String? {
            error?.code.rawValue ?? (try? decode(Components.Schemas.MethodNotAllowedError.self))?.error.code.rawValue
        }

        /// An error answer with exactly this status and code.
        func refused(_ status: Int, _ code: Components.Schemas.ErrorCode) -> Bool {
            self.status == status && error?.code == code
        }
    }

    func get(_ path: String, token: String? = nil) async throws -> Response {
        try await send(.get, path, token: token, body: nil)
    }

    /// `body` encoded as JSON: a generated request type, or `OpenAPIJSON` for one it cannot hold.
    func post(_ path: String, token: String? = nil, body: some Encodable, headers: [String: String] = [:]) async throws
        -> Response
    {
        try await send(.post, path, token: token, body: try APIJSON.encode(body), headers: headers)
    }

    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String?, body: Data?, headers extra: [String: String] = [:]
    ) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let token { headers[.authorization] = "Bearer \(token)" }
        for (name, value) in extra { headers[HTTPField.Name(name)!] = value }
        return try await execute(method, path, headers, body.map { ByteBuffer(bytes: $0) })
    }
}
