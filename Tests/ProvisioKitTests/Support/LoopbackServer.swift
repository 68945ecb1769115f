import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ProvisioHTTP

/// A real HTTP server on loopback whose `handler` answers every GET and POST, for the client's
/// tests: the requests travel through URLSession and the generated client for real.
struct LoopbackServer: Sendable {
    let running: RunningApplication

    var port: Int { running.port }
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    static func serve(_ handler: @escaping @Sendable (Request) async throws -> Response) async throws -> LoopbackServer {
        let router = Router()
        router.get("**") { request, _ in try await handler(request) }
        router.post("**") { request, _ in try await handler(request) }
        var logger = Logger(label: "loopback-test-server")
        logger.logLevel = .error
        let running = try await RunningApplication.start(logger: logger) { onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onListening($0.localAddress?.port ?? 0) }, logger: logger)
        }
        return LoopbackServer(running: running)
    }

    /// Stops the server gracefully, in the background (tests call this from `defer`); a handler
    /// that is still waiting on purpose (a slow answer) is cancelled after a second.
    func stop() {
        let running = self.running
        Task { await running.stop(grace: .seconds(1)) }
    }
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
