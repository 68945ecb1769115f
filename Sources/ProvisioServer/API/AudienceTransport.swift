import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// Registers each generated operation on the router group of its audience, so that the
/// group's authentication and idempotency run before it: `/v1/mobile/…` for the issuer's app,
/// `/v1/network/…` for the card network, the rest of `/v1/…` for the issuer's backend, and
/// everything else (health, metrics, the document) unauthenticated.
struct AudienceTransport: ServerTransport {
    let open: RouterGroup<ProvisioRequestContext>
    let issuer: RouterGroup<ProvisioRequestContext>
    let network: RouterGroup<ProvisioRequestContext>
    let mobile: RouterGroup<ProvisioRequestContext>

    func register(
        _ handler:
            @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
                HTTPResponse, HTTPBody?
            ),
        method: HTTPRequest.Method, path: String
    ) throws {
        if let rest = Self.strip("/v1/mobile", from: path) {
            mobile.register(handler, method: method, path: rest)
        } else if let rest = Self.strip("/v1/network", from: path) {
            network.register(handler, method: method, path: rest)
        } else if let rest = Self.strip("/v1", from: path) {
            issuer.register(handler, method: method, path: rest)
        } else {
            open.register(handler, method: method, path: path)
        }
    }

    /// The path below `prefix` (a whole segment), or nil.
    static func strip(_ prefix: String, from path: String) -> String? {
        guard path.hasPrefix(prefix + "/") else { return nil }
        return String(path.dropFirst(prefix.count))
    }
}
