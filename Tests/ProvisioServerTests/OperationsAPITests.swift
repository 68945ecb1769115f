import Crypto
import Foundation
import NIOCore
import ProvisioCore
import ProvisioCrypto
import Testing

@testable import ProvisioServer

@Suite struct OperationsAPITests {
    @Test(arguments: TestEngine.available)
    func healthReadyAndOpenAPI(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let health = try await server.client.get("/health")
            #expect(health.status == 200 && health.json?["status"] as? String == "ok")
            let ready = try await server.client.get("/ready")
            #expect(ready.status == 200 && ready.json?["status"] as? String == "ready")
            let spec = try await server.client.get("/openapi.yaml")
            #expect(spec.status == 200)
            #expect(spec.header("Content-Type") == "application/yaml")
            #expect(spec.text.hasPrefix("openapi: '3.1") || spec.text.hasPrefix("openapi: 3.1"))
        }
    }

    @Test(arguments: TestEngine.available)
    func metricsCountRequestsPerRouteAndProvisioningPerWallet(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let id = try await server.makeCard(apiKey: apiKey)["id"] as! String
            _ = try await server.client.get("/v1/cards/\(id)", token: apiKey)
            _ = try await server.client.get("/v1/cards/\(id)", token: apiKey)
            _ = try await server.client.post(
                "/v1/cards/\(id)/provisioning/apple-pay", token: apiKey, json: try server.applePayBody())
            var expired = try server.applePayBody()
            expired["certificates"] = ProductionChainFixture.certificates
            _ = try await server.client.post("/v1/cards/\(id)/provisioning/apple-pay", token: apiKey, json: expired)
            _ = try await server.client.post("/v1/cards/\(id)/provisioning/google-pay", token: apiKey, json: [String: Any]())
            _ = try await server.client.get("/nowhere")

            let metrics = try await server.client.get("/metrics")
            #expect(metrics.status == 200)
            let text = metrics.text
            #expect(
                text.contains(#"provisio_http_requests_total{method="GET",route="/v1/cards/{id}",status="200"} 2"#), "\(text)")
            #expect(
                text.contains(
                    #"provisio_http_requests_total{method="POST",route="/v1/cards/{id}/provisioning/apple-pay",status="422"} 1"#))
            #expect(text.contains(#"route="NotFound",status="404"} 1"#))
            #expect(text.contains(#"provisio_provisioning_attempts_total{wallet="apple_pay",outcome="succeeded"} 1"#))
            #expect(text.contains(#"provisio_provisioning_attempts_total{wallet="apple_pay",outcome="failed"} 1"#))
            #expect(text.contains(#"provisio_provisioning_attempts_total{wallet="google_pay",outcome="succeeded"} 1"#))
            #expect(text.contains("provisio_http_request_duration_seconds_bucket"))
            // Label values are route templates, never ids.
            #expect(!text.contains(id))
        }
    }

    @Test func readinessFailsWhenTheDatabaseIsGone() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let store = SQLProvisioStore(handle: database.handle)
        try await store.ping()
        await database.tearDown()
        let error = await #expect(throws: ProvisioError.self) { try await store.ping() }
        #expect(error?.code == .databaseUnavailable)
        #expect(ProvisioError.Code.databaseUnavailable.status.rawValue == 503)
    }

    @Test func idempotencyFingerprintIgnoresJSONKeyOrderAndWhitespace() {
        let digester = KeyedDigester(key: SymmetricKey(size: .bits256))
        func hash(_ text: String, path: String = "/v1/cards", with digester: KeyedDigester = digester) -> String {
            IdempotencyMiddleware.fingerprint(method: .post, path: path, body: ByteBuffer(string: text), digester: digester)
        }
        #expect(hash(#"{"a":1,"b":[1,2]}"#) == hash(#"{ "b": [1, 2], "a": 1 }"#))
        #expect(hash(#"{"a":1,"b":[1,2]}"#) != hash(#"{"a":1,"b":[2,1]}"#))
        #expect(hash(#"{"a":1}"#) != hash(#"{"a":1}"#, path: "/v1/mobile-sessions"))
        #expect(hash("not json") != hash("not json "))
        // Keyed: the same request under another server's key gives an unrelated digest, and
        // no unkeyed hash of the body matches what is stored.
        let body = #"{"pan":"4111111111111111"}"#
        #expect(hash(body) != hash(body, with: KeyedDigester(key: SymmetricKey(size: .bits256))))
        #expect(hash(body) != BinaryText.lowercaseHex(SHA256.hash(data: Data(body.utf8))))
    }
}
