import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime
import ProvisioCore
import ProvisioHTTP

/// Registers each generated operation on the router group of its audience, so that the group's
/// authentication (which also holds an API key to its scope) and idempotency run before it:
/// `/v1/mobile/…` for the issuer's app, `/v1/network/…` for the card network, the rest of
/// `/v1/…` for the issuer's backend, and everything else (health, metrics, the document, card
/// art) unauthenticated.
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
        try RoutedTransport<ProvisioRequestContext>(route: { _, path in audience(of: path) })
            .register(handler, method: method, path: path)
    }

    /// The group of the operation at `path`, and the path below the group's prefix.
    func audience(of path: String) -> (group: RouterGroup<ProvisioRequestContext>, path: String) {
        typealias Transport = RoutedTransport<ProvisioRequestContext>
        if let rest = Transport.strip("/v1/mobile", from: path) { return (mobile, rest) }
        if let rest = Transport.strip("/v1/network", from: path) { return (network, rest) }
        // Card art is public: wallets and networks fetch it without credentials.
        if path.hasPrefix("/v1/card-art/") { return (open, path) }
        if let rest = Transport.strip("/v1", from: path) { return (issuer, rest) }
        return (open, path)
    }
}
