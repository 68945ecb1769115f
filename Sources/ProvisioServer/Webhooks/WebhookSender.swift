import Foundation

/// Sends one webhook request for a tenant; the outcome is the endpoint's status and (bounded)
/// answer, or a thrown transport error.
public protocol WebhookSender: Sendable {
    func send(tenantID: String, url: String, headers: [(name: String, value: String)], body: Data, timeout: Duration)
        async throws -> WebhookAnswer
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

/// `WebhookSender` through the guarded outbound client: the endpoint's address checked at
/// connect time, no redirects, a bounded answer.
public struct HTTPWebhookSender: WebhookSender {
    let client: OutboundHTTPClient

    public init(client: OutboundHTTPClient) {
        self.client = client
    }

    public func send(
        tenantID: String, url: String, headers: [(name: String, value: String)], body: Data, timeout: Duration
    ) async throws -> WebhookAnswer {
        let standard: [(name: String, value: String)] = [
            ("Content-Type", "application/json"), ("User-Agent", "Provisio-Webhooks/1"),
        ]
        let answer = try await client.owned(by: tenantID).post(url, headers: standard + headers, body: body, timeout: timeout)
        return WebhookAnswer(status: answer.status, body: answer.body)
    }
}
