import Foundation

/// When to try again: exponential backoff from `baseDelay`, doubled per failed attempt, capped
/// at `maximumDelay`; after `maximumAttempts` the delivery is `failed` (and can be replayed).
public struct WebhookDeliveryPolicy: Sendable {
    public var baseDelay: TimeInterval
    public var maximumDelay: TimeInterval
    public var maximumAttempts: Int
    public var requestTimeout: Duration
    /// How long a claimed delivery is leased to one sender before another may take it.
    public var lease: TimeInterval
    /// How often the worker looks for due deliveries.
    public var pollInterval: Duration

    /// 5 s, 10 s, 20 s … capped at one hour, 12 attempts (about 3 hours end to end).
    public static let standard = WebhookDeliveryPolicy(
        baseDelay: 5, maximumDelay: 3600, maximumAttempts: 12, requestTimeout: .seconds(10), lease: 60,
        pollInterval: .milliseconds(500))

    public init(
        baseDelay: TimeInterval, maximumDelay: TimeInterval, maximumAttempts: Int, requestTimeout: Duration, lease: TimeInterval,
        pollInterval: Duration
    ) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
        self.requestTimeout = requestTimeout
        self.lease = lease
        self.pollInterval = pollInterval
    }

    /// The delay before the next try after `failedAttempts` failures (1 or more).
    public func delay(afterFailedAttempts failedAttempts: Int) -> TimeInterval {
        let exponent = Double(max(0, failedAttempts - 1))
        return min(maximumDelay, baseDelay * pow(2, exponent))
    }
}
