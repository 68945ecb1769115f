import ProvisioAPI
import ProvisioCore

/// Provisio's API as the OpenAPI document declares it: each method turns the generated input
/// into Core's validated values once, calls a service, and builds the generated output. The
/// methods live in one extension per area (`ProvisioAPIHandler+Settings.swift`, …).
struct ProvisioAPIHandler: APIProtocol {
    let services: ServerServices

    /// The request id for the `X-Request-Id` header every answer documents.
    static func requestID() throws -> String { try RequestScope.require().requestID }

    /// The caller's tenant.
    static func tenantID() throws -> String { try RequestScope.require().requirePrincipal().tenantID }
}

extension ProvisioAPIHandler {
    /// An id from the path (a key, a session, an endpoint, a delivery): one that cannot be an
    /// id is `invalid_parameter`.
    static func pathID(_ id: String) throws -> String {
        guard !id.isEmpty, id.count <= 64 else {
            throw ProvisioError(.invalidParameter, "The id in the path is not valid.")
        }
        return id
    }

    /// A body in a content type the operation does not take (the generated code only hands over
    /// the documented ones, so this is a safety net).
    static func unreadableBody() -> ProvisioError {
        ProvisioError(.invalidRequest, "The request body must be application/json.")
    }
}
