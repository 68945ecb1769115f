/// The one error type of Provisio: a stable machine-readable code and a human message.
///
/// Every layer throws this type so that the wire error model (`{"error": {"code", "message",
/// "request_id"}}`) and the CLI's exit line are built from the same value. Messages are written
/// for people and must never carry a PAN or key material; codes are `snake_case` and stable.
public struct ProvisioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, documented error code. Every code is declared once, in error-codes.yaml at the
    /// package root, with the HTTP status a server answers it with; Tools/generate-wire.sh writes
    /// the constants (`.cardNotFound`) into the module that raises them, and the statuses into
    /// ProvisioHTTP, the servers' side (`code.status`).
    ///
    /// Two codes are equal when their strings are; where a code came from is not part of it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code as it appears on the wire, e.g. `card_not_found`.
        public let rawValue: String
        /// Whether another service sent this code (see `init(received:)`).
        public let isReceived: Bool

        /// A code of error-codes.yaml; only the generated constants make one.
        package init(_ rawValue: String) {
            self.rawValue = rawValue
            self.isReceived = false
        }

        /// A code another service sent over the wire (Provisio's answer read by the sandbox, the
        /// SDK or the demo; the sandbox's answer read by its client). Its meaning is the sender's;
        /// if this process relays it as its own answer, it is an upstream's error, so a server
        /// answers it 502, whatever status the sender used.
        public init(received rawValue: String) {
            self.rawValue = rawValue
            self.isReceived = true
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
