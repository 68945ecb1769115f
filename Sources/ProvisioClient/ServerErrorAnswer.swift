import Foundation

/// The error object every Provisio error answer carries (`{"error": {"code", "message",
/// "request_id"}}`, the document's `Error` schema), read with the code as plain text. The
/// generated `Components.Schemas._Error` would refuse a code its `ErrorCode` enum does not list,
/// and a server newer than this SDK may answer one: the app must still see it, as a received code.
struct ServerErrorAnswer: Decodable {
    struct Body: Decodable {
        let code: String
        let message: String
        let requestID: String?

        enum CodingKeys: String, CodingKey {
            case code, message
            case requestID = "request_id"
        }
    }

    let error: Body
}
