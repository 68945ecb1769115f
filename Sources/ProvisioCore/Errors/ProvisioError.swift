/// The one error type of Provisio: a stable machine-readable code and a human message.
///
/// Every layer throws this type so that the wire error model (`{"error": {"code", "message",
/// "request_id"}}`) and the CLI's exit line are built from the same value. Messages are written
/// for people and must never carry a PAN or key material; codes are `snake_case` and stable.
public struct ProvisioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, documented error code and the HTTP status a server answers it with. New codes
    /// are added as `static let`s next to the domain that raises them, each declaring its
    /// status there: `public static let cardNotFound = Self("card_not_found", status: .notFound)`.
    ///
    /// Two codes are equal when their strings are; the status is not part of the identity.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code as it appears on the wire, e.g. `card_not_found`.
        public let rawValue: String
        /// The status a server answers this code with.
        public let status: Status

        public init(_ rawValue: String, status: Status) {
            self.rawValue = rawValue
            self.status = status
        }

        /// A code another service sent over the wire (Provisio's answer read by the sandbox, the
        /// SDK or the demo; the sandbox's answer read by its client). Its meaning is the sender's;
        /// if this process relays it as its own answer, it is an upstream's error, so its status
        /// is 502 `badGateway`, whatever status the sender used.
        public init(received rawValue: String) {
            self.init(rawValue, status: .badGateway)
        }

        public var description: String { rawValue }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
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
    public static let invalidRequest = Self("invalid_request", status: .badRequest)
}
