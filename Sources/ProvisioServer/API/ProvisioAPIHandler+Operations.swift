import Foundation
import OpenAPIRuntime
import ProvisioAPI
import ProvisioHTTP

/// Unauthenticated operational endpoints: liveness, readiness (the database answers),
/// Prometheus metrics, and the OpenAPI document itself.
extension ProvisioAPIHandler {
    /// The document served at `/openapi.yaml`: the same bytes the wire code is generated from.
    static let openAPIDocument = BundledDocument.text("openapi", extension: "yaml", in: .module)

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(status: .ok))))
    }

    func getReady(_ input: Operations.GetReady.Input) async throws -> Operations.GetReady.Output {
        try await services.store.ping()
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(status: .ready))))
    }

    func getMetrics(_ input: Operations.GetMetrics.Input) async throws -> Operations.GetMetrics.Output {
        .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .plainText(HTTPBody(services.metrics.exposition()))))
    }

    func getOpenAPIDocument(_ input: Operations.GetOpenAPIDocument.Input) async throws
        -> Operations.GetOpenAPIDocument.Output
    {
        .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .yaml(HTTPBody(Self.openAPIDocument))))
    }
}
