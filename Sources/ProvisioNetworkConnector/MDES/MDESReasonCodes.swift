import ProvisioMDESCustomerServiceAPI

/// Provisio's free-text `reason_code` mapped onto MDES's one-letter codes (docs/mdes.md, "Token
/// states and reason codes"). Any reason without a match is `Z` ("other"); the reason itself
/// travels in `CommentText`.
enum MDESReasonCodes {
    static func suspend(_ reason: String?) -> Components.Schemas.SuspendReason {
        switch reason {
        case "device_lost": .l
        case "device_stolen": .s
        case "fraud": .t
        default: .z
        }
    }

    static func unsuspend(_ reason: String?) -> Components.Schemas.UnsuspendReason {
        switch reason {
        case "device_found": .f
        case "fraud": .t
        default: .z
        }
    }

    static func delete(_ reason: String?) -> Components.Schemas.DeleteReason {
        switch reason {
        case "device_lost": .l
        case "device_stolen": .s
        case "fraud": .t
        case "card_closed": .c
        case "customer_request": .d
        default: .z
        }
    }
}
