import Foundation
import ProvisioCore

/// The one error shape on every Provisio wire — the server, the sandbox service and the
/// network connector: `{"error": {"code", "message", "request_id"?}}`. Servers encode it;
/// clients decode it and keep the code.
public struct WireError: Codable, Sendable, Hashable {
    public struct Body: Codable, Sendable, Hashable {
        public var code: String
        public var message: String
        /// Provisio's request id; absent where the answering service has none (the sandbox).
        public var requestID: String?

        public init(code: String, message: String, requestID: String? = nil) {
            self.code = code
            self.message = message
            self.requestID = requestID
        }

        /// As a `ProvisioError`, keeping the code (a received one: relayed, it answers 502).
        public var provisioError: ProvisioError { ProvisioError(ProvisioError.Code(received: code), message) }

        enum CodingKeys: String, CodingKey {
            case code, message
            case requestID = "request_id"
        }
    }

    public var error: Body

    public init(_ error: ProvisioError, requestID: String? = nil) {
        self.error = Body(code: error.code.rawValue, message: error.message, requestID: requestID)
    }

    /// The error an answer body carries, nil when it is not this shape (or has no code).
    public static func decode(from body: some Collection<UInt8>) -> Body? {
        guard let wire = try? JSONDecoder().decode(WireError.self, from: Data(body)), !wire.error.code.isEmpty else {
            return nil
        }
        return wire.error
    }
}
