import Foundation

/// Where a tenant receives webhooks, and which event types.
public struct WebhookEndpointRecord: Sendable, Equatable {
    public var id: String
    public var tenantID: String
    public var url: String
    /// Event types, or `["*"]` for all.
    public var events: [String]
    /// The signing secret as a `VaultRecord.serialized`, sealed with `vaultContext`.
    public var secretVaultRecord: String
    public var createdAt: Date
    /// After a rotation, the secret before it (sealed the same way), which keeps signing every
    /// webhook alongside the new one until `previousSecretExpiresAt`, so receivers can switch.
    public var previousSecretVaultRecord: String? = nil
    public var previousSecretExpiresAt: Date? = nil

    /// The sealed secrets that sign a webhook sent at `time`: the current one, and the previous
    /// one while its overlap lasts.
    public func signingSecretRecords(at time: Date) -> [String] {
        guard let previous = previousSecretVaultRecord, let until = previousSecretExpiresAt, time < until else {
            return [secretVaultRecord]
        }
        return [secretVaultRecord, previous]
    }

    public static func vaultContext(tenantID: String, endpointID: String) -> String { "webhook/\(tenantID)/\(endpointID)" }

    public func subscribes(to type: String) -> Bool { events.contains("*") || events.contains(type) }
}

/// One event, stored once; its id is the `webhook-id` of every delivery of it.
public struct WebhookEventRecord: Sendable, Equatable {
    public var id: String
    public var tenantID: String
    public var type: String
    /// The exact JSON body sent: `{"type", "timestamp", "data"}`.
    public var payload: String
    public var createdAt: Date
}

/// One event to one endpoint: the outbox row the delivery service works through.
public struct WebhookDeliveryRecord: Sendable, Equatable {
    public enum State: String, Sendable, Codable { case pending, succeeded, failed }

    public var id: String
    public var tenantID: String
    public var eventID: String
    public var endpointID: String
    public var state: State
    public var attemptCount: Int
    public var nextAttemptAt: Date
    public var lastResponseStatus: Int?
    public var lastError: String?
    public var createdAt: Date
    public var updatedAt: Date
}

/// One HTTP attempt of a delivery.
public struct WebhookAttemptRecord: Sendable, Equatable {
    public var id: String
    public var deliveryID: String
    public var attemptedAt: Date
    public var responseStatus: Int?
    public var error: String?
    public var durationMilliseconds: Int
}

/// A claimed delivery with what it takes to send it.
public struct DueWebhookDelivery: Sendable {
    public var delivery: WebhookDeliveryRecord
    public var event: WebhookEventRecord
    public var endpoint: WebhookEndpointRecord
}
