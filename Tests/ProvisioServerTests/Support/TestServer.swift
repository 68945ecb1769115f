import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioServer

/// A real Provisio server on loopback (HummingbirdTesting `.live`) over a fresh database, with
/// a test clock, in-memory keys, the sandbox CA trusted, and every log line captured.
struct TestServer: Sendable {
    /// One sandbox CA for the whole run (RSA key generation is slow).
    static let sandboxCA = try! SandboxCertificateAuthority.generate(profile: SandboxCAProfile(now: Date()))

    let services: ServerServices
    let clock: TestClock
    let keys: ProvisioKeys
    let networkKey: P256.KeyAgreement.PrivateKey
    let logs: LogCapture
    let database: DatabaseLocation
    let engine: TestEngine
    let client: APIClient

    var ca: SandboxCertificateAuthority { Self.sandboxCA }

    static func run<T: Sendable>(
        _ engine: TestEngine, clock: TestClock = TestClock(), outbound: OutboundHTTPClient? = nil,
        limits: HTTPLimits = .standard, _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        let logs = LogCapture()
        return try await TestDatabase.with(engine, logger: logs.logger(label: "db")) { database in
            let keys = ProvisioKeys.generate()
            let networkKey = P256.KeyAgreement.PrivateKey()
            let services = ServerServices(
                handle: database.handle, keys: keys,
                chainValidator: CachingChainValidator(validator: .production(additionalAnchors: [sandboxCA.root])),
                networkKey: networkKey.publicKey, networkKeyID: "net-test",
                outbound: outbound ?? OutboundHTTPClient(policy: .development), clock: clock)
            let app = ProvisioHTTPApplication.make(
                services: services, host: "127.0.0.1", port: 0, limits: limits, logger: logs.logger(label: "provisio"))
            let location = database.location
            return try await app.test(.live) { client in
                let server = TestServer(
                    services: services, clock: clock, keys: keys, networkKey: networkKey, logs: logs, database: location,
                    engine: engine, client: APIClient(client: client))
                return try await body(server)
            }
        }
    }

    /// A tenant and its API key.
    func makeTenant(_ name: String = "Acme Bank") async throws -> (id: String, apiKey: String) {
        let (tenant, apiKey) = try await services.access.createTenant(name: name)
        return (tenant.id, apiKey)
    }

    /// Creates a card through the API and returns its JSON.
    func makeCard(
        apiKey: String, customerRef: String = "cust_1", pan: String = "4111111111111111", expiryYear: Int = 2030,
        extra: [String: Any] = [:]
    ) async throws -> [String: Any] {
        var body: [String: Any] = [
            "customer_ref": customerRef, "pan": pan, "expiry_month": 12, "expiry_year": expiryYear,
            "cardholder_name": "Jane Appleseed",
        ]
        body.merge(extra) { $1 }
        let response = try await client.post("/v1/cards", token: apiKey, json: body)
        guard response.status == 201, let json = response.json else {
            throw TestSetupError("card creation failed: \(response.status) \(response.text)")
        }
        return json
    }

    /// What an app sends after PassKit's `generateRequestWithCertificateChain`.
    func applePayBody(scheme: EncryptionScheme = .eccV2, deviceType: String? = "phone") throws -> [String: Any] {
        var body: [String: Any] = [
            "certificates": try ca.chainBase64(for: scheme), "nonce": "3f2a9107", "nonce_signature": "MEUCIQDx",
            "encryption_scheme": scheme.rawValue,
        ]
        if let deviceType { body["device_type"] = deviceType }
        return body
    }
}

/// JSON over the live test client.
struct APIClient: Sendable {
    typealias Execute = @Sendable (HTTPRequest.Method, String, HTTPFields, ByteBuffer?) async throws -> Response
    private let execute: Execute
    let port: Int?

    /// Over the test framework's client; after an answer that closed the connection
    /// (`Connection: close`: 413, 408) the next request goes over a new connection.
    init(client: any TestClientProtocol) {
        self.port = client.port
        let replacement = ReplacementConnection(port: client.port)
        self.execute = { method, path, headers, body in
            if let fresh = try await replacement.current() {
                let response = try await fresh.execute(.init(path, method: method, headers: headers, body: body))
                replacement.noteClose(response.headers[.connection] == "close")
                return Response(
                    status: response.status.code, headers: response.headers, body: Data(buffer: response.body ?? ByteBuffer()))
            }
            let response = try await client.execute(uri: path, method: method, headers: headers, body: body) {
                Response(status: $0.status.code, headers: $0.headers, body: Data(buffer: $0.body))
            }
            replacement.noteClose(response.headers[.connection] == "close")
            return response
        }
    }

    /// Over a connection of its own (for requests that must really run in parallel).
    init(connection: TestClient) {
        self.port = nil
        self.execute = { method, path, headers, body in
            let response = try await connection.execute(.init(path, method: method, headers: headers, body: body))
            return Response(
                status: response.status.code, headers: response.headers, body: Data(buffer: response.body ?? ByteBuffer()))
        }
    }

    struct Response: Sendable {
        let status: Int
        let headers: HTTPFields
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
        func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
    }

    func get(_ path: String, token: String? = nil) async throws -> Response {
        try await send(.get, path, token: token, body: nil)
    }

    func post(_ path: String, token: String? = nil, json: Any, headers: [String: String] = [:]) async throws -> Response {
        try await send(.post, path, token: token, body: try JSONSerialization.data(withJSONObject: json), headers: headers)
    }

    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String?, body: Data?, headers extra: [String: String] = [:]
    ) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let token { headers[.authorization] = "Bearer \(token)" }
        for (name, value) in extra { headers[HTTPField.Name(name)!] = value }
        return try await execute(method, path, headers, body.map { ByteBuffer(bytes: $0) })
    }
}

/// The connection the test client uses once the server has closed the framework's own.
final class ReplacementConnection: Sendable {
    private let port: Int?
    private let state = Locked<(client: TestClient?, closed: Bool)>((nil, false))

    init(port: Int?) { self.port = port }

    /// nil while the original connection is usable.
    func current() async throws -> TestClient? {
        let (needsNew, existing): (Bool, TestClient?) = state.withLock { state in
            defer { state.closed = false }
            return (state.closed, state.client)
        }
        guard needsNew, let port else { return existing }
        let fresh = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
        fresh.connect()
        let old: TestClient? = state.withLock { state in
            defer { state.client = fresh }
            return state.client
        }
        try? await old?.shutdown()
        return fresh
    }

    func noteClose(_ closedByServer: Bool) {
        if closedByServer { state.withLock { $0.closed = true } }
    }
}
