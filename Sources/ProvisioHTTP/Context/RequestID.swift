import HTTPTypes

/// The id every request gets: `req_` and 24 hex digits (96 random bits), answered in the
/// `X-Request-Id` header and in every error body, and logged with the request.
public enum RequestID {
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = "0123456789abcdef".map { $0 }
        return "req_" + String((0..<24).map { _ in digits[Int.random(in: 0..<16, using: &generator)] })
    }
}

extension HTTPField.Name {
    public static let requestID = Self("X-Request-Id")!
}
