import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// Registers each generated operation on the router group its path belongs to, so that group's
/// middleware (authentication, idempotency) runs before it. A POST, PUT or PATCH with no body
/// bytes reaches the generated code without a body: it would try to decode an empty optional
/// body as JSON.
public struct RoutedTransport<Context: RequestContext>: ServerTransport {
    /// The group for an operation (method, path as the document spells it) and the path below
    /// the group's own prefix.
    public let route: (HTTPRequest.Method, String) -> (group: RouterGroup<Context>, path: String)

    public init(route: @escaping (HTTPRequest.Method, String) -> (group: RouterGroup<Context>, path: String)) {
        self.route = route
    }

    public func register(
        _ handler:
            @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
                HTTPResponse, HTTPBody?
            ),
        method: HTTPRequest.Method, path: String
    ) throws {
        let (group, rest) = route(method, path)
        guard [.post, .put, .patch].contains(method) else {
            group.register(handler, method: method, path: rest)
            return
        }
        group.register(
            { request, body, metadata in
                // In memory already: StrictBodyMiddleware read it within the limits.
                var bytes: [UInt8] = []
                if let body { bytes = try await [UInt8](collecting: body, upTo: .max) }
                return try await handler(request, bytes.isEmpty ? nil : HTTPBody(bytes), metadata)
            }, method: method, path: rest)
    }

    /// The path below `prefix` (a whole segment), or nil.
    public static func strip(_ prefix: String, from path: String) -> String? {
        guard path.hasPrefix(prefix + "/") else { return nil }
        return String(path.dropFirst(prefix.count))
    }
}
