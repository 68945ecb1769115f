import Crypto
import Foundation
import NIOCore
import OpenAPIRuntime
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import Testing

@testable import ProvisioServer

@Suite struct OperationsAPITests {
    @Test(arguments: TestEngine.available)
    func healthReadyAndOpenAPI(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let api = server.api()
            #expect(try await api.getHealth().ok.body.json.status == .ok)
            #expect(try await api.getReady().ok.body.json.status == .ready)
            let document = try await api.getOpenAPIDocument().ok.body.yaml
            let text = try await String(collecting: document, upTo: 1 << 20)
            #expect(server.answers.all.last?.header("Content-Type") == "application/yaml")
            #expect(text.hasPrefix("openapi: '3.1") || text.hasPrefix("openapi: 3.1"))
        }
    }

    @Test(arguments: TestEngine.available)
    func metricsCountRequestsPerRouteAndProvisioningPerWallet(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let id = try await server.makeCard(apiKey: apiKey).id
            _ = try await api.getCard(path: .init(id: id)).ok
            _ = try await api.getCard(path: .init(id: id)).ok
            _ = try await api.provisionApplePay(path: .init(id: id), body: .json(try server.applePayRequest())).ok
            var expired = try server.applePayRequest()
            expired.certificates = ProductionChainFixture.certificates
            #expect(try await api.provisionApplePay(path: .init(id: id), body: .json(expired)).status == 422)
            _ = try await api.provisionGooglePay(path: .init(id: id), body: .json(.init())).ok
            // A path no operation has.
            _ = try await server.raw.get("/nowhere")

            let metrics = try await server.api().getMetrics().ok.body.plainText
            let text = try await String(collecting: metrics, upTo: 1 << 20)
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
