import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ProvisioCore
import ProvisioHTTP

/// A real HTTP webhook receiver on loopback that records what arrives and can be "down"
/// (answering 503) for a while.
final class WebhookReceiver: Sendable {
    struct Received: Sendable {
        var id: String
        var timestamp: String
        var signature: String
        var authorization: String?
        var path: String
        var body: Data
    }

    private struct State {
        var received: [Received] = []
        var down = false
        var answer: String?
        var delay: Duration = .zero
        var redirect: String?
        var server: RunningApplication?
        var port = 0
    }

    private let state = Locked(State())

    /// The port it listens on, once `start()` returned.
    var port: Int { state.withLock { $0.port } }
    var url: String { "http://127.0.0.1:\(port)/hooks" }

    func setDown(_ value: Bool) { state.withLock { $0.down = value } }
    /// A JSON body to answer with (200) instead of an empty 204.
    func setAnswer(_ value: String?) { state.withLock { $0.answer = value } }
    /// How long to wait before answering (to outlast a caller's timeout).
    func setDelay(_ value: Duration) { state.withLock { $0.delay = value } }
    /// Answer every request with a 302 to this URL (a redirect a caller must not follow).
    func setRedirect(_ value: String?) { state.withLock { $0.redirect = value } }
    var deliveries: [Received] { state.withLock { $0.received } }

    func start() async throws {
        let router = Router()
        router.post("**") { [self] request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            let isDown = state.withLock { $0.down }
            if isDown { return Response(status: .serviceUnavailable) }
            let item = Received(
                id: request.headers[HTTPField.Name("webhook-id")!] ?? "",
                timestamp: request.headers[HTTPField.Name("webhook-timestamp")!] ?? "",
                signature: request.headers[HTTPField.Name("webhook-signature")!] ?? "",
                authorization: request.headers[.authorization], path: request.uri.path,
                body: Data(buffer: body))
            let (reply, wait, location) = state.withLock { state in
                state.received.append(item)
                return (state.answer, state.delay, state.redirect)
            }
            if let location {
                var headers = HTTPFields()
                headers[.location] = location
                headers[.contentType] = "application/json"
                return Response(
                    status: .found, headers: headers,
                    body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"code":"x","message":"INTERNAL-SECRET-TEXT"}}"#)))
            }
            if wait > .zero { try await Task.sleep(for: wait) }
            if let reply {
                var headers = HTTPFields()
                headers[.contentType] = "application/json"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: reply)))
            }
            return Response(status: .noContent)
        }
        let started = try await LoopbackApplication.start(router, label: "receiver")
        state.withLock {
            $0.server = started
            $0.port = started.port
        }
    }

    /// Stops the server gracefully, in the background: tests call this from `defer`.
    func stop() {
        guard let server = state.withLock({ $0.server }) else { return }
        Task { await server.stop() }
    }
}
