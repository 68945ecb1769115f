import Foundation

struct CreateWebhookEndpointBody: RequestBody {
    static let fields: Set<String> = ["url", "events"]
    var url: String
    var events: [String]
}

struct WebhookEndpointWire: Encodable {
    var id: String
    var url: String
    var events: [String]
    /// Only in the answer to creation: it is never shown again.
    var secret: String?
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, url, events, secret
        case createdAt = "created_at"
    }

    init(_ endpoint: WebhookEndpointRecord, secret: String? = nil) {
        self.id = endpoint.id
        self.url = endpoint.url
        self.events = endpoint.events
        self.secret = secret
        self.createdAt = endpoint.createdAt
    }
}

struct WebhookEventWire: Encodable {
    var id: String
    var type: String
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, type
        case createdAt = "created_at"
    }
}

struct WebhookAttemptWire: Encodable {
    var attemptedAt: Date
    var responseStatus: Int?
    var error: String?
    var durationMs: Int

    enum CodingKeys: String, CodingKey {
        case attemptedAt = "attempted_at"
        case responseStatus = "response_status"
        case error
        case durationMs = "duration_ms"
    }

    init(_ attempt: WebhookAttemptRecord) {
        self.attemptedAt = attempt.attemptedAt
        self.responseStatus = attempt.responseStatus
        self.error = attempt.error
        self.durationMs = attempt.durationMilliseconds
    }
}

struct WebhookDeliveryWire: Encodable {
    var id: String
    var eventID: String
    var endpointID: String
    var state: String
    var attemptCount: Int
    var nextAttemptAt: Date?
    var lastResponseStatus: Int?
    var lastError: String?
    var createdAt: Date
    var attempts: [WebhookAttemptWire]?

    enum CodingKeys: String, CodingKey {
        case id
        case eventID = "event_id"
        case endpointID = "endpoint_id"
        case state
        case attemptCount = "attempt_count"
        case nextAttemptAt = "next_attempt_at"
        case lastResponseStatus = "last_response_status"
        case lastError = "last_error"
        case createdAt = "created_at"
        case attempts
    }

    init(_ delivery: WebhookDeliveryRecord, attempts: [WebhookAttemptRecord]? = nil) {
        self.id = delivery.id
        self.eventID = delivery.eventID
        self.endpointID = delivery.endpointID
        self.state = delivery.state.rawValue
        self.attemptCount = delivery.attemptCount
        self.nextAttemptAt = delivery.state == .pending ? delivery.nextAttemptAt : nil
        self.lastResponseStatus = delivery.lastResponseStatus
        self.lastError = delivery.lastError
        self.createdAt = delivery.createdAt
        self.attempts = attempts?.map(WebhookAttemptWire.init)
    }
}
