import Foundation
import Hummingbird
import NIOCore
import ProvisioHTTP

/// Per-request state: a request id for the error body and logs, and who is calling.
public struct ProvisioRequestContext: WireRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let requestID: String
    public var principal: Principal?
    /// The operator signed in to the support console, on its pages.
    var console: ConsoleSignedIn?
    /// The connection's peer (a proxy's address behind one), for the sign-in limits.
    let peer: SocketAddress?

    /// Bodies above this are refused with 413 `payload_too_large` before they are parsed.
    public var maxUploadSize: Int { limits.maximumBodyBytes }
    /// A body not all there by this time (the body-read timeout after the headers arrived) is
    /// refused with 408.
    public var bodyDeadline: ContinuousClock.Instant = .now
    /// The server's limits (the application sets them for every request it serves).
    public var limits = HTTPLimits.standard

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peer = source.channel.remoteAddress
        self.requestID = RequestID.generate()
        self.logger[metadataKey: "request_id"] = .string(requestID)
    }

    /// The authenticated principal, or `missing_credentials` when a route is reached without one
    /// (a wiring mistake: routes are only reachable through an authenticator).
    func requirePrincipal() throws -> Principal {
        guard let principal else { throw APIError.missingCredentials() }
        return principal
    }
}
