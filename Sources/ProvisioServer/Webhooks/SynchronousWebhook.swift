import Foundation
import ProvisioCore
import ProvisioCrypto

/// A webhook whose answer Provisio needs right away (the OTP relay's channels, the issuer's
/// decision): signed like every webhook, sent to the subscribed endpoints newest first until
/// one gives a usable answer, and recorded like any delivery (event, delivery, attempt) so it
/// shows in the delivery list. The whole call, all endpoints together, fits in `timeout`, and
/// at most `maximumEndpoints` are tried: a caller (the network) is waiting.
struct SynchronousWebhook: Sendable {
    static let maximumEndpoints = 3
    /// How early by Swift's clock an HTTP client's deadline may fire and still count as one.
    static let clockTolerance = Duration.milliseconds(100)

    let store: any WebhookStore
    let vault: PANVault
    let sender: any WebhookSender
    let clock: any TimeSource

    /// What came of one call: the parsed answer or why there is none.
    struct Result<Answer: Sendable>: Sendable {
        var answer: Answer?
        var failures: [String]
        /// True when the last try ran out of time (the caller may name that reason).
        var timedOut: Bool
    }

    /// Calls `endpoints` in turn until `parse` accepts an answer or the time is up; every try
    /// is recorded. The event is stored without the message's secrets: what is sent may hold a
    /// live one-time code that must not rest in the database.
    func call<Answer: Sendable>(
        _ message: WebhookMessage, tenantID: String, endpoints: [WebhookEndpointRecord],
        timeout: Duration, parse: (Data) throws -> Answer
    ) async throws -> Result<Answer> {
        let now = clock.now()
        let body = try message.body(at: now)
        let storedBody = try message.withoutSecrets.body(at: now)
        let event = WebhookEventRecord(
            id: RandomToken.identifier(prefix: "msg_"), tenantID: tenantID, type: message.type,
            payload: String(decoding: storedBody, as: UTF8.self), createdAt: now)
        var result = Result<Answer>(answer: nil, failures: [], timedOut: false)
        var deliveries: [(WebhookDeliveryRecord, WebhookAttemptRecord)] = []
        let deadline = ContinuousClock.now.advanced(by: timeout)
        for endpoint in endpoints.prefix(Self.maximumEndpoints) where result.answer == nil {
            let started = ContinuousClock.now
            let remaining = deadline - started
            guard remaining > .milliseconds(10) else {
                result.timedOut = true
                break
            }
            var status: Int?
            var failure: String?
            do {
                let answer = try await send(to: endpoint, event: event, body: body, at: now, timeout: remaining)
                status = answer.status
                if (200..<300).contains(answer.status) {
                    result.answer = try parse(answer.body)
                } else {
                    failure = "The issuer answered HTTP \(answer.status)."
                }
            } catch let error as ProvisioError {
                failure = error.message
            } catch {
                failure = "The issuer's endpoint could not be reached."
            }
            let elapsed = ContinuousClock.now - started
            // No answer by the deadline. The HTTP client's deadline runs on NIO's clock, this one on
            // Swift's: a client giving up a hair before `remaining` by this clock still timed out.
            result.timedOut = failure != nil && status == nil && elapsed >= remaining - Self.clockTolerance
            if let failure { result.failures.append(failure) }
            let delivery = WebhookDeliveryRecord(
                id: RandomToken.identifier(prefix: "whd_"), tenantID: tenantID, eventID: event.id, endpointID: endpoint.id,
                state: failure == nil ? .succeeded : .failed, attemptCount: 1, nextAttemptAt: now, lastResponseStatus: status,
                lastError: failure, createdAt: now, updatedAt: clock.now())
            let attempt = WebhookAttemptRecord(
                id: RandomToken.identifier(prefix: "wha_"), deliveryID: delivery.id, attemptedAt: now, responseStatus: status,
                error: failure, durationMilliseconds: Int(elapsed.milliseconds))
            deliveries.append((delivery, attempt))
        }
        try await store.enqueue(event: event, deliveries: deliveries.map(\.0))
        for (delivery, attempt) in deliveries { try await store.recordWebhookAttempt(attempt, delivery: delivery) }
        return result
    }

    private func send(to endpoint: WebhookEndpointRecord, event: WebhookEventRecord, body: Data, at now: Date, timeout: Duration)
        async throws -> WebhookAnswer
    {
        return try await sender.send(
            tenantID: endpoint.tenantID, url: endpoint.url,
            headers: try WebhookEndpointSigning.headers(for: endpoint, vault: vault, id: event.id, body: body, at: now),
            body: body, timeout: timeout)
    }
}
