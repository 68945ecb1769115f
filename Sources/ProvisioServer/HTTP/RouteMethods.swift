import HTTPTypes
import Hummingbird

/// Which methods each route path accepts, so a request to a known path with another method is
/// answered 405 with an `Allow` header instead of 404 (HEAD and OPTIONS included: no route
/// serves them).
struct RouteMethods: Sendable {
    private let routes: [(components: [RouterPath.Element], method: HTTPRequest.Method)]

    init(_ routes: [Router<ProvisioRequestContext>.RouteDescription]) {
        self.routes = routes.map { ($0.path.components, $0.method) }
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
