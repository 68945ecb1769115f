import Foundation

/// One webhook event with its deliveries, ready to be written in the same transaction as the
/// change it announces: a change and its webhook are stored together or not at all, so a crash
/// between them can neither lose the webhook nor announce a change that was not made.
public struct OutboxEntry: Sendable {
    public var event: WebhookEventRecord
    public var deliveries: [WebhookDeliveryRecord]
}
