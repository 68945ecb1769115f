/// The one error type of Provisio: a stable machine-readable code and a human message.
///
/// Every layer throws this type so that the wire error model (`{"error": {"code", "message",
/// "request_id"}}`) and the CLI's exit line are built from the same value. Messages are written
/// for people and must never carry a PAN or key material; codes are `snake_case` and stable.
public struct ProvisioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, documented error code. New codes are added as `static let`s next to the
    /// domain that raises them.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension ProvisioError.Code {
    /// A request that is not the shape the receiver expects (missing field, wrong type).
    public static let invalidRequest: Self = "invalid_request"
}
