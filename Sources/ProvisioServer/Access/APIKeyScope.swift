import HTTPTypes
import ProvisioCore

/// What an API key may do. `full` is everything; `read_only` reads (GET) and changes nothing;
/// `provisioning` is what an app-facing backend needs and no more: mobile sessions (create and
/// revoke), provision tokens and provisioning payloads.
public enum APIKeyScope: String, Sendable, CaseIterable {
    case full
    case readOnly = "read_only"
    case provisioning

    /// Whether a key of this scope may call the operation at `path` (as the OpenAPI document
    /// spells it, `{id}` and all) with `method`.
    public func permits(method: HTTPRequest.Method, path: String) -> Bool {
        switch self {
        case .full:
            return true
        case .readOnly:
            return method == .get || method == .head
        case .provisioning:
            if path == "/v1/mobile-sessions" || path.hasPrefix("/v1/mobile-sessions/") { return true }
            if path == "/v1/provision-tokens" { return method == .post }
            return method == .post && path.hasPrefix("/v1/cards/{id}/provisioning/")
        }
    }

    public init(wire: String) throws {
        guard let scope = Self(rawValue: wire) else {
            throw ProvisioError(.invalidParameter, "scope must be one of full, read_only, provisioning.")
        }
        self = scope
    }
}
