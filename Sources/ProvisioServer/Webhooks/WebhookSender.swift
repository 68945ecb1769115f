import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Sends one webhook request; the outcome is the endpoint's status and (bounded) answer, or a
/// thrown transport error.
public protocol WebhookSender: Sendable {
    func send(url: String, headers: [(name: String, value: String)], body: Data, timeout: Duration) async throws
        -> WebhookAnswer
}

/// What an endpoint answered. Most webhooks only need the status; a synchronous one (the OTP
/// relay) reads the body too.
public struct WebhookAnswer: Sendable {
    public var status: Int
    public var body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// `WebhookSender` over AsyncHTTPClient (its shared client: pooled connections, no redirects
/// followed, since a webhook answer is the endpoint's status and nothing else).
public struct HTTPWebhookSender: WebhookSender {
    let client: HTTPClient

    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    public func send(url: String, headers: [(name: String, value: String)], body: Data, timeout: Duration) async throws
        -> WebhookAnswer
    {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Provisio-Webhooks/1")
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .milliseconds(timeout.milliseconds))
        // Read (bounded) so the connection can be reused and synchronous answers parsed.
        let answer = (try? await response.body.collect(upTo: 64 * 1024)).map { Data(buffer: $0) } ?? Data()
        return WebhookAnswer(status: Int(response.status.code), body: answer)
    }
}
