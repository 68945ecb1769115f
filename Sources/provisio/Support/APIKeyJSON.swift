import Foundation
import ProvisioServer

/// A key as one line of JSON, the API's field names; never its hash.
enum APIKeyJSON {
    /// ISO 8601 in UTC, whole seconds, as the API writes times.
    static func timestamp(_ date: Date) -> String { date.formatted(.iso8601) }

    static func line(_ key: APIKeyRecord, secret: String? = nil) -> String {
        var object: [String: String] = [
            "id": key.id, "name": key.name, "scope": key.scope.rawValue, "created_at": timestamp(key.createdAt),
        ]
        object["last_used_at"] = key.lastUsedAt.map(timestamp)
        object["revoked_at"] = key.revokedAt.map(timestamp)
        object["key"] = secret
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(object)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
