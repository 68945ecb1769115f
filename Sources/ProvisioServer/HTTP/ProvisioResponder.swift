import HTTPTypes
import Hummingbird
import ProvisioCore
import ProvisioHTTP

/// The outermost responder: the server's limits on every request context, metrics for every
/// request, and the wire error shape also for paths no route matches (the router answers those
/// itself, outside any route middleware): 404 for an unknown path, 405 with `Allow` for a known
/// path and another method. Neither echoes the method or path the caller sent.
struct ProvisioResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == ProvisioRequestContext {
    typealias Context = ProvisioRequestContext
    let inner: Inner
    let metrics: ProvisioMetrics
    let methods: RouteMethods
    let limits: HTTPLimits

    /// `/v1/card-products/{id}/art`: the art upload, whose body may be larger than any other.
    static func isCardArtUpload(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 5 && parts[0].isEmpty && parts[1] == "v1" && parts[2] == "card-products" && !parts[3].isEmpty
            && parts[4] == "art"
    }

    /// The metrics route label of every request no route matched (404 and 405 alike), so unknown
    /// paths never grow the label set.
    static var unmatchedRoute: String { "NotFound" }

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        context.limits = limits
        if request.method == .put, Self.isCardArtUpload(request.uri.path) {
            context.limits.maximumBodyBytes = limits.maximumCardArtBodyBytes
        }
        context.bodyDeadline = start.advanced(by: limits.bodyReadTimeout)
        var response: Response
        do {
            response = try await inner.respond(to: request, context: context)
            if methods.matchedRoute(endpointPath: context.endpointPath) == nil {
                let allowed = methods.allowed(forPath: request.uri.path)
                if allowed.isEmpty {
                    response = WireDialect.provisio.response(
                        for: ProvisioError(.routeNotFound, "No such route."), requestID: context.requestID)
                } else {
                    response = WireDialect.provisio.response(
                        for: ProvisioError(.methodNotAllowed, "This route does not accept that method."),
                        requestID: context.requestID)
                    response.headers[.allow] = allowed.joined(separator: ", ")
                }
            }
        } catch {
            response = WireDialect.provisio.response(
                for: WireDialect.provisio.provisioError(for: error), requestID: context.requestID)
        }
        response.headers[.requestID] = context.requestID
        metrics.recordRequest(
            method: request.method.rawValue,
            route: methods.matchedRoute(endpointPath: context.endpointPath) ?? Self.unmatchedRoute,
            status: response.status.code, duration: ContinuousClock.now - start)
        return response
    }
}
