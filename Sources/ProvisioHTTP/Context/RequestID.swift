import HTTPTypes

/// The id every request gets: `req_` and 24 hex digits (96 random bits), answered in the
/// `X-Request-Id` header and in every error body, and logged with the request.
public enum RequestID {
    public static func generate() -> String {
        // Two draws of 64 bits (one system call each) instead of one per digit.
        var generator = SystemRandomNumberGenerator()
        let high = generator.next()
        let low = generator.next() >> 32
        return "req_" + hex(high, digits: 16) + hex(low, digits: 8)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: digits - text.count) + text
    }
}

extension HTTPField.Name {
    public static let requestID = Self("X-Request-Id")!
}
