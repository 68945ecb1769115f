import Foundation

struct MobileSessionBody: RequestBody {
    static let fields: Set<String> = ["customer_ref", "ttl_seconds"]
    var customerRef: String
    var ttlSeconds: Int?

    enum CodingKeys: String, CodingKey {
        case customerRef = "customer_ref"
        case ttlSeconds = "ttl_seconds"
    }
}

struct MobileSessionWire: Encodable {
    var token: String
    var customerRef: String
    var expiresAt: Date

    enum CodingKeys: String, CodingKey {
        case token
        case customerRef = "customer_ref"
        case expiresAt = "expires_at"
    }
}

struct ProvisionTokenBody: RequestBody {
    static let fields: Set<String> = ["card_id", "wallet"]
    var cardID: String
    var wallet: String

    enum CodingKeys: String, CodingKey {
        case cardID = "card_id"
        case wallet
    }
}

struct ProvisionTokenWire: Encodable {
    var provisionToken: String
    var cardID: String
    var wallet: String
    var expiresAt: Date

    enum CodingKeys: String, CodingKey {
        case provisionToken = "provision_token"
        case cardID = "card_id"
        case wallet
        case expiresAt = "expires_at"
    }
}
