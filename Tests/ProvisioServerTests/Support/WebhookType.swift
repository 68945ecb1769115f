import Foundation

/// The `type` of any webhook body, whatever its data.
struct WebhookType: Decodable, Sendable {
    let type: String

    init(_ body: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: body)
    }
}
