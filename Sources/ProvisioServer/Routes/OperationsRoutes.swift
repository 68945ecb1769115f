import Foundation
import HTTPTypes
import Hummingbird
import ProvisioCore

/// Unauthenticated operational endpoints: liveness, readiness (the database answers),
/// Prometheus metrics, and the OpenAPI description of the API.
struct OperationsRoutes {
    let store: any ProvisioStore
    let metrics: ProvisioMetrics

    static let openAPIDocument: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { fatalError("The bundled openapi.yaml is missing; the package is broken.") }
        return text
    }()

    func register(on router: Router<ProvisioRequestContext>) {
        router.get("health") { _, _ in
            try JSONCoding.response(["status": "ok"])
        }
        router.get("ready") { _, _ in
            try await store.ping()
            return try JSONCoding.response(["status": "ready"])
        }
        router.get("metrics") { _, _ in
            Self.text(metrics.exposition(), contentType: "text/plain; version=0.0.4")
        }
        router.get("openapi.yaml") { _, _ in
            Self.text(Self.openAPIDocument, contentType: "application/yaml")
        }
    }

    static func text(_ text: String, contentType: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
