import HTTPTypes
import Hummingbird

/// Which methods each route path accepts, so a request to a known path with another method is
/// answered 405 with an `Allow` header instead of 404 (HEAD and OPTIONS included: no route
/// serves them); and whether the router matched a route at all.
struct RouteMethods: Sendable {
    private let routes: [(components: [RouterPath.Element], method: HTTPRequest.Method)]
    /// Every route's path, as the router names the endpoint it matched (`/v1/cards/{id}`).
    private let paths: Set<String>

    init(_ routes: [Router<ProvisioRequestContext>.RouteDescription]) {
        self.routes = routes.map { ($0.path.components, $0.method) }
        self.paths = Set(routes.map(\.path.description))
    }

    /// The route the router matched, or nil when it matched none. When it matches, the router
    /// names the endpoint after that route's path (`context.endpointPath`) before calling it;
    /// whatever it writes there otherwise is not a route's path.
    func matchedRoute(endpointPath: String?) -> String? {
        guard let endpointPath, paths.contains(endpointPath) else { return nil }
        return endpointPath
    }

    /// The methods the path accepts, sorted; empty when no route has this path.
    func allowed(forPath path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let methods = routes.filter { route in
            route.components.count == segments.count && zip(route.components, segments).allSatisfy { $0 ~= $1 }
        }.map(\.method.rawValue)
        return Set(methods).sorted()
    }
}
