import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ServiceLifecycle

/// Works through the outbox: claims due deliveries, signs and sends them, records every
/// attempt, and schedules retries with the policy's backoff. Runs in every server process;
/// claims are leased in the database, so processes share the work without sending twice
/// (a sender that dies mid-delivery is retried after its lease, with the same `webhook-id`).
public struct WebhookDeliveryWorker: Service {
    let store: any WebhookStore
    let vault: PANVault
    let sender: any WebhookSender
    let clock: any TimeSource
    let policy: WebhookDeliveryPolicy
    let logger: Logger

    public init(
        store: any WebhookStore, vault: PANVault, sender: any WebhookSender, clock: any TimeSource, policy: WebhookDeliveryPolicy,
        logger: Logger
    ) {
        self.store = store
        self.vault = vault
        self.sender = sender
        self.clock = clock
        self.policy = policy
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                let sent = try await deliverDue()
                if sent > 0 { continue }
            } catch {
                logger.warning("webhook delivery pass failed; will retry", metadata: ["error_type": "\(type(of: error))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: policy.pollInterval) }
        }
    }

    /// One pass: sends every delivery due now (up to a batch); returns how many were tried.
    @discardableResult
    public func deliverDue(batch: Int = 50) async throws -> Int {
        let now = clock.now()
        let due = try await store.claimDueWebhookDeliveries(
            now: now, leaseUntil: now.addingTimeInterval(policy.lease), limit: batch)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for item in due {
                group.addTask { try await deliver(item) }
            }
            try await group.waitForAll()
        }
        return due.count
    }

    func deliver(_ item: DueWebhookDelivery) async throws {
        let startedAt = clock.now()
        let started = ContinuousClock.now
        var status: Int?
        var failure: String?
        do {
            let body = Data(item.event.payload.utf8)
            let headers = try WebhookEndpointSigning.headers(
                for: item.endpoint, vault: vault, id: item.event.id, body: body, at: startedAt)
            status = try await sender.send(
                tenantID: item.endpoint.tenantID, url: item.endpoint.url, headers: headers, body: body,
                timeout: policy.requestTimeout
            ).status
            if let status, !(200..<300).contains(status) { failure = "The endpoint answered HTTP \(status)." }
        } catch let error as ProvisioError {
            failure = error.description
        } catch {
            failure = "The endpoint could not be reached."
        }
        let elapsed = ContinuousClock.now - started
        var delivery = item.delivery
        delivery.attemptCount += 1
        delivery.lastResponseStatus = status
        delivery.lastError = failure
        delivery.updatedAt = clock.now()
        if failure == nil {
            delivery.state = .succeeded
        } else if delivery.attemptCount >= policy.maximumAttempts {
            delivery.state = .failed
        } else {
            delivery.state = .pending
            delivery.nextAttemptAt = clock.now().addingTimeInterval(policy.delay(afterFailedAttempts: delivery.attemptCount))
        }
        let attempt = WebhookAttemptRecord(
            id: RandomToken.identifier(prefix: "wha_"), deliveryID: delivery.id, attemptedAt: startedAt, responseStatus: status,
            error: failure,
            durationMilliseconds: Int(elapsed.milliseconds))
        try await store.recordWebhookAttempt(attempt, delivery: delivery)
        if let failure {
            logger.info(
                "webhook delivery failed",
                metadata: ["delivery_id": "\(delivery.id)", "attempt": "\(delivery.attemptCount)", "reason": "\(failure)"])
        }
    }
}
