import Foundation
import ProvisioCore

/// The one error shape on the wire: `{"error": {"code", "message", "request_id"}}`.
struct WireError: Codable, Sendable {
    struct Body: Codable, Sendable {
        var code: String
        var message: String
        var requestID: String

        enum CodingKeys: String, CodingKey {
            case code, message
            case requestID = "request_id"
        }
    }

    var error: Body

    init(_ error: ProvisioError, requestID: String) {
        self.error = Body(code: error.code.rawValue, message: error.message, requestID: requestID)
    }
}
