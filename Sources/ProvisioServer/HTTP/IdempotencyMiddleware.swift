import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import ProvisioCore

/// `Idempotency-Key` on POST: the first request with a key runs and its response (including a
/// 4xx) is stored; the same key with the same method, path and body replays it with
/// `Idempotent-Replayed: true`; the same key with anything else is 422
/// `idempotency_key_reused`. Concurrent duplicates: one claims the key, the others wait for its
/// answer. A 5xx releases the key so the client can retry.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = ProvisioRequestContext

    let store: any ProvisioStore
    let clock: any TimeSource
    /// How long a duplicate waits for the first request before giving up with 409.
    var waitLimit: Duration = .seconds(15)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard request.method == .post, let key = request.headers[.idempotencyKey] else {
            return try await next(request, context)
        }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ProvisioError(.idempotencyKeyInvalid, "The Idempotency-Key must be 1 to 255 visible ASCII characters.")
        }
        let scope = try context.requirePrincipal().idempotencyScope
        var request = request
        let body = try await RequestBodyReader.collect(&request, context: context)
        let requestHash = Self.fingerprint(method: request.method, path: request.uri.description, body: body)

        let deadline = ContinuousClock.now.advanced(by: waitLimit)
        while true {
            switch try await store.claimIdempotencyKey(scope: scope, key: key, requestHash: requestHash, at: clock.now()) {
            case .claimed:
                return try await runAndRemember(request, context: context, next: next, scope: scope, key: key)
            case .existing(let record):
                guard record.requestHash == requestHash else {
                    throw ProvisioError(
                        .idempotencyKeyReused, "This Idempotency-Key was used with a different request; use a new key.")
                }
                if let replay = Self.replay(record) { return replay }
                guard ContinuousClock.now < deadline else {
                    throw ProvisioError(
                        .idempotencyRequestInProgress, "A request with this Idempotency-Key is still running; retry later.")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    private func runAndRemember(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response, scope: String, key: String
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = ErrorMiddleware.response(for: ErrorMiddleware.provisioError(for: error), requestID: context.requestID)
        }
        guard response.status.code < 500 else {
            try? await store.releaseIdempotencyKey(scope: scope, key: key)
            return response
        }
        let collector = BodyCollector()
        try await response.body.write(collector)
        let bytes = collector.buffer
        try await store.completeIdempotencyKey(
            scope: scope, key: key, status: response.status.code, body: String(buffer: bytes))
        response.body = .init(byteBuffer: bytes)
        return response
    }

    private static func replay(_ record: IdempotencyRecord) -> Response? {
        guard record.state == .completed, let status = record.responseStatus else { return nil }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.idempotentReplayed] = "true"
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: record.responseBody ?? "")))
    }

    /// Method, path and body. A JSON body is hashed in canonical form (sorted keys, no
    /// whitespace) so a retry that serialises the same object differently is still "the same
    /// request"; any other body is hashed as bytes.
    static func fingerprint(method: HTTPRequest.Method, path: String, body: ByteBuffer) -> String {
        var hasher = SHA256()
        hasher.update(data: Data("\(method.rawValue) \(path)\n".utf8))
        let bytes = Data(buffer: body)
        if let object = try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed]),
            let canonical = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        {
            hasher.update(data: Data("json\n".utf8))
            hasher.update(data: canonical)
        } else {
            hasher.update(data: Data("bytes\n".utf8))
            hasher.update(data: bytes)
        }
        return BinaryText.lowercaseHex(hasher.finalize())
    }
}

/// Collects a response body so it can be stored and sent.
///
/// `@unchecked Sendable`: written only by the single `ResponseBody.write` call that owns it and
/// read after that call returns, never concurrently.
final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var copy = buffer
        self.buffer.writeBuffer(&copy)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
