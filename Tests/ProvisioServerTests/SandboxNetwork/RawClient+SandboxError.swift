import Foundation
import ProvisioSandboxAPI

extension RawClient.Response {
    /// The error body as the sandbox document's generated `Error` type (closed at both levels,
    /// so a field it does not declare fails to decode); nil when the body is anything else.
    var sandboxErrorBody: Components.Schemas._Error._ErrorPayload? {
        try? decode(Components.Schemas._Error.self).error
    }

    /// `{"error": {"code", "message", "request_id"}}` and nothing else, Provisio's shape, with a
    /// request id of the documented form that is the `X-Request-Id` header's.
    var hasSandboxErrorShape: Bool {
        guard let error = sandboxErrorBody else { return false }
        return error.requestId.hasPrefix("req_") && error.requestId.count == 28 && header("X-Request-Id") == error.requestId
    }
}
