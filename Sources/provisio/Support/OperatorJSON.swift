import Foundation
import ProvisioServer

/// An operator as one line of JSON; never the password hash.
enum OperatorJSON {
    static func object(_ record: OperatorRecord) -> [String: String] {
        var object = [
            "id": record.id, "tenant_id": record.tenantID, "email": record.email, "role": record.role.rawValue,
            "created_at": APIKeyJSON.timestamp(record.createdAt),
        ]
        object["disabled_at"] = record.disabledAt.map(APIKeyJSON.timestamp)
        return object
    }

    static func line(_ object: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(object)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
