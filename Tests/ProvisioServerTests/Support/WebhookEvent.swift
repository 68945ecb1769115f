import Foundation
import ProvisioAPI

/// A webhook body as Provisio sends it (Standard Webhooks): `{"type", "timestamp", "data"}`.
/// The document describes no webhook payloads, so `data` is read as the tests' `WebhookPayload`
/// types, or as the document's `Token` for the `token.*` events, which carry the API's token.
struct WebhookEvent<Payload: Decodable & Sendable>: Decodable, Sendable {
    let type: String
    let timestamp: Date
    let data: Payload

    /// Read with the generated types' coding: strict timestamps, closed generated objects.
    init(_ body: Data) throws {
        self = try APIJSON.decode(Self.self, from: body)
    }
}
