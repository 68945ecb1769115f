import Hummingbird
import ProvisioCore

/// The outermost responder: metrics for every request, and the wire error shape also for paths
/// no route matches (the router answers those itself, outside any route middleware).
struct ProvisioResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == ProvisioRequestContext {
    typealias Context = ProvisioRequestContext
    let inner: Inner
    let metrics: ProvisioMetrics

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await inner.respond(to: request, context: context)
            if context.endpointPath == "NotFound" {
                response = ErrorMiddleware.response(
                    for: ProvisioError(.routeNotFound, "No route for \(request.method.rawValue) \(request.uri.path)."),
                    requestID: context.requestID)
            }
        } catch {
            response = ErrorMiddleware.response(for: ErrorMiddleware.provisioError(for: error), requestID: context.requestID)
        }
        response.headers[.requestID] = context.requestID
        metrics.recordRequest(
            method: request.method.rawValue, route: context.endpointPath ?? "NotFound", status: response.status.code,
            duration: ContinuousClock.now - start)
        return response
    }
}
