import Foundation
import ProvisioAPI
import ProvisioCore
import Testing

@testable import ProvisioServer

/// Every connection and request limit, over a real socket: slow or oversized clients are
/// answered in the wire shape where an answer is possible, and their connections closed.
@Suite struct HTTPLimitsTests {
    /// Short body limits. The idle timeout stays long: Hummingbird's idle timer also runs
    /// while a body trickles in, and on a loaded machine would drop the connection before the
    /// server got to answer.
    static var shortLimits: HTTPLimits {
        var limits = HTTPLimits.standard
        limits.bodyReadTimeout = .milliseconds(500)
        limits.maximumBodyBytes = 4096
        return limits
    }

    /// Short enough for a test to wait it out, long enough that a busy machine's event loops do
    /// not reach it between a new connection and its first request.
    static var shortIdle: HTTPLimits {
        var limits = HTTPLimits.standard
        limits.idleTimeout = .seconds(3)
        return limits
    }

    /// The code of the error body after the head, read as the document's `Error` schema.
    static func errorCode(in response: Data) -> Components.Schemas.ErrorCode? {
        let text = String(decoding: response, as: UTF8.self)
        guard let start = text.range(of: "\r\n\r\n") else { return nil }
        let body = Data(text[start.upperBound...].utf8)
        return (try? APIJSON.decode(Components.Schemas._Error.self, from: body))?.error.code
    }

    /// The tests' raw client after its connection sat past the server's idle timeout (long tests
    /// on a loaded machine reach the 30 s one): the next request, a GET or a POST, goes over a
    /// new connection instead of crossing the server's close.
    @Test func theRawClientReconnectsAfterTheIdleTimeout() async throws {
        try await TestServer.run(.sqlite, limits: Self.shortIdle) { server in
            #expect(try await server.raw.get("/health").status == 200)
            try await Task.sleep(for: .milliseconds(3500))
            #expect(try await server.raw.get("/health").status == 200)
            try await Task.sleep(for: .milliseconds(3500))
            let post = try await server.raw.post("/v1/mobile-sessions", body: [:] as OpenAPIJSON)
            #expect(post.refused(401, .missingCredentials), "\(post.text)")
        }
    }

    @Test func aHalfSentRequestLineIsDroppedAfterTheIdleTimeout() async throws {
        try await TestServer.run(.sqlite, limits: Self.shortIdle) { server in
            let connection = try RawConnection(port: try #require(server.raw.port))
            try connection.send("GET /hea")
            let (_, closed) = await connection.readUntilClosed(timeout: .seconds(20))
            #expect(closed, "a half-sent request line kept its connection open")
            // An idle keep-alive connection goes the same way after a complete request.
            let idle = try RawConnection(port: try #require(server.raw.port))
            try idle.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let (answer, idleClosed) = await idle.readUntilClosed(timeout: .seconds(20))
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            #expect(idleClosed)
        }
    }

    @Test func aBodyThatNeverFinishesIsAnswered408AndClosed() async throws {
        try await TestServer.run(.sqlite, limits: Self.shortLimits) { server in
            let (_, apiKey) = try await server.makeTenant()
            let connection = try RawConnection(port: try #require(server.raw.port))
            try connection.send(
                "POST /v1/mobile-sessions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(apiKey)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"customer_ref\":")
            let (answer, closed) = await connection.readUntilClosed(timeout: .seconds(20))
            #expect(
                String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 408"), "\(String(decoding: answer, as: UTF8.self))")
            #expect(Self.errorCode(in: answer) == .requestTimeout)
            #expect(closed)
        }
    }

    @Test func anOversizedBodyIsAnswered413AndTheConnectionClosed() async throws {
        try await TestServer.run(.sqlite, limits: Self.shortLimits) { server in
            let (_, apiKey) = try await server.makeTenant()
            let connection = try RawConnection(port: try #require(server.raw.port))
            // Announce 1 MB, send 8 KB: the answer comes without waiting for the rest.
            try connection.send(
                "POST /v1/mobile-sessions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(apiKey)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n" + String(repeating: "a", count: 8192))
            let started = ContinuousClock.now
            let (answer, closed) = await connection.readUntilClosed(timeout: .seconds(20))
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 413"), "\(text.prefix(200)) after \(ContinuousClock.now - started)")
            #expect(Self.errorCode(in: answer) == .payloadTooLarge)
            #expect(text.lowercased().contains("connection: close"))
            #expect(closed, "the connection stayed open after 413")
        }
    }

    @Test func malformedOrOversizedHeadersGetTheWireShape() async throws {
        try await TestServer.run(.sqlite) { server in
            let port = try #require(server.raw.port)
            let cases = [
                "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 40_000))\r\n\r\n",
                "GET /v1/cards HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ab\u{0}cd\r\n\r\n",
                "GET /health HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: 1\r\n", count: 200) + "\r\n",
                "NOT A REQUEST\r\n\r\n",
            ]
            for request in cases {
                let connection = try RawConnection(port: port)
                try connection.send(request)
                let (answer, closed) = await connection.readUntilClosed(timeout: .seconds(20))
                let text = String(decoding: answer, as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 400"), "\(text.prefix(120))")
                #expect(Self.errorCode(in: answer) == .malformedRequest, "\(text.prefix(300))")
                #expect(text.lowercased().contains("x-request-id: req_"))
                #expect(!text.contains("bbbb") && !text.contains("ab\u{0}cd"))
                #expect(closed)
            }
        }
    }

    @Test func aKnownPathWithAnotherMethodIs405WithAllow() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            for method in ["DELETE", "PUT", "HEAD", "OPTIONS", "PATCH"] {
                let connection = try RawConnection(port: try #require(server.raw.port))
                try connection.send(
                    "\(method) /v1/cards HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(apiKey)\r\nConnection: close\r\n\r\n")
                let text = String(decoding: await connection.readUntilClosed(timeout: .seconds(20)).data, as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 405"), "\(method): \(text.prefix(120))")
                #expect(text.contains("Allow: GET, POST") || text.contains("allow: GET, POST"), "\(text)")
            }
            let unknown = try await server.raw.get("/v1/no-such-thing-\("SECRET-PATH")", token: apiKey)
            #expect(unknown.refused(404, .routeNotFound), "\(unknown.text)")
            #expect(!unknown.text.contains("SECRET-PATH") && !unknown.text.contains("GET"))
            let idPath = try await server.raw.send(.delete, "/v1/cards/card_123", token: apiKey, body: nil)
            #expect(idPath.status == 405 && idPath.header("Allow") == "GET, PATCH")
            let refusal = try idPath.decode(Components.Schemas.MethodNotAllowedError.self).error
            #expect(refusal.code == .methodNotAllowed && refusal.requestId == idPath.header("X-Request-Id"))
        }
    }

    @Test func limitsHaveSaneDefaults() {
        let limits = HTTPLimits.standard
        #expect(limits.idleTimeout == .seconds(30) && limits.bodyReadTimeout == .seconds(10))
        #expect(limits.maximumBodyBytes == 256 * 1024 && limits.maximumHeaderBytes == 16 * 1024)
        #expect(limits.maximumConnections == 1024 && limits.maximumHeaderCount == 64)
    }
}
