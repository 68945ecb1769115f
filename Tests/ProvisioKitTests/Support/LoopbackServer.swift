import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// A real HTTP server on loopback whose `handler` answers every GET and POST, for the client's
/// tests: the requests travel through URLSession and the generated client for real.
struct LoopbackServer: Sendable {
    let port: Int
    let task: Task<Void, any Error>

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    static func serve(_ handler: @escaping @Sendable (Request) async throws -> Response) async throws -> LoopbackServer {
        let router = Router()
        router.get("**") { request, _ in try await handler(request) }
        router.post("**") { request, _ in try await handler(request) }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "loopback-test-server")
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.runService() }
        for await port in stream { return LoopbackServer(port: port, task: task) }
        throw CancellationError()
    }

    func stop() { task.cancel() }
}

/// A JSON answer, with the `X-Request-Id` every Provisio answer documents (the generated client
/// requires it) unless `extra` names one.
func jsonResponse(_ status: HTTPResponse.Status, _ json: String, headers extra: HTTPFields = [:]) -> Response {
    var headers = extra
    headers[.contentType] = "application/json"
    let requestID = HTTPField.Name("X-Request-Id")!
    if headers[requestID] == nil { headers[requestID] = "req_0123456789abcdef01234567" }
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
}
