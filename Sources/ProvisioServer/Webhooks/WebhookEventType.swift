import ProvisioCore

/// The events an endpoint can subscribe to: the document's `WebhookEventType`.
public enum WebhookEventType {
    public static let all: [String] = WebhookMessage.eventTypes

    /// Validates a subscription list; `*` means every event.
    static func validate(_ events: [String]) throws -> [String] {
        guard !events.isEmpty else {
            throw ProvisioError(.invalidParameter, "events must list at least one event type, or \"*\".")
        }
        for event in events where event != "*" && !all.contains(event) {
            throw ProvisioError(.invalidParameter, "events lists an unknown event type. Known: \(all.joined(separator: ", ")).")
        }
        return Array(Set(events)).sorted()
    }
}
