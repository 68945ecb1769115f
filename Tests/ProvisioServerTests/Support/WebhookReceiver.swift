import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A real HTTP webhook receiver on loopback that records what arrives and can be "down"
/// (answering 503) for a while.
final class WebhookReceiver: @unchecked Sendable {
    // `@unchecked Sendable`: every mutable property is read and written only under `lock`.
    struct Received: Sendable {
        var id: String
        var timestamp: String
        var signature: String
        var authorization: String?
        var path: String
        var body: Data
    }

    private let lock = NSLock()
    private var received: [Received] = []
    private var down = false
    private var answer: String?
    private var delay: Duration = .zero
    private var redirect: String?
    private var task: Task<Void, any Error>?
    private(set) var port = 0

    var url: String { "http://127.0.0.1:\(port)/hooks" }

    func setDown(_ value: Bool) { lock.withLock { down = value } }
    /// A JSON body to answer with (200) instead of an empty 204.
    func setAnswer(_ value: String?) { lock.withLock { answer = value } }
    /// How long to wait before answering (to outlast a caller's timeout).
    func setDelay(_ value: Duration) { lock.withLock { delay = value } }
    /// Answer every request with a 302 to this URL (a redirect a caller must not follow).
    func setRedirect(_ value: String?) { lock.withLock { redirect = value } }
    var deliveries: [Received] { lock.withLock { received } }

    func start() async throws {
        let router = Router()
        router.post("**") { [self] request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            let isDown = lock.withLock { down }
            if isDown { return Response(status: .serviceUnavailable) }
            let item = Received(
                id: request.headers[HTTPField.Name("webhook-id")!] ?? "",
                timestamp: request.headers[HTTPField.Name("webhook-timestamp")!] ?? "",
                signature: request.headers[HTTPField.Name("webhook-signature")!] ?? "",
                authorization: request.headers[.authorization], path: request.uri.path,
                body: Data(buffer: body))
            let (reply, wait, location) = lock.withLock {
                received.append(item)
                return (answer, delay, redirect)
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
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "receiver")
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        task = Task { try await app.run() }
        for await port in stream {
            self.port = port
            break
        }
    }

    func stop() {
        task?.cancel()
    }
}
