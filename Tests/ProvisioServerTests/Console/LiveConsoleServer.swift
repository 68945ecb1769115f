import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP

@testable import ProvisioServer

/// A server for the sign-in defences that `TestServer` cannot build: the real bcrypt cost, TLS,
/// a declared TLS proxy. Over a fresh SQLite file, on a loopback port, with an HTTP client of
/// its own that keeps as many connections open as a flood needs.
struct LiveConsoleServer: Sendable {
    let services: ServerServices
    let port: Int
    let client: HTTPClient
    let clock: TestClock

    struct Answer: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let text: String

        func header(_ name: String) -> String? { headers.first(name: name) }
    }

    static func run<T: Sendable>(
        hasher: any PasswordHasher = BcryptPasswordHasher(cost: 4), clock: TestClock = TestClock(),
        tls: TLSCredentials? = nil, configure: @Sendable (inout ServerServices) -> Void = { _ in },
        _ body: @Sendable (LiveConsoleServer) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "live-console")
        logger.logLevel = .critical
        return try await TestDatabase.with(.sqlite, logger: logger) { database in
            var services = ServerServices(
                handle: database.handle, keys: .generate(), chainValidator: CachingChainValidator(validator: .production()),
                networkKey: P256.KeyAgreement.PrivateKey().publicKey, networkKeyID: "n", passwordHasher: hasher,
                clock: clock)
            configure(&services)
            let running = try await RunningApplication.start(logger: logger) { onListening in
                ProvisioHTTPApplication.make(
                    services: services, host: "127.0.0.1", port: 0, tls: tls, logger: logger, onListening: onListening)
            }
            let port = running.port
            var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
            tlsConfiguration.certificateVerification = .none
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: HTTPClient.Configuration(
                    tlsConfiguration: tlsConfiguration, redirectConfiguration: .disallow,
                    connectionPool: .init(idleTimeout: .seconds(10), concurrentHTTP1ConnectionsPerHostSoftLimit: 128)))
            let server = LiveConsoleServer(services: services, port: port, client: client, clock: clock)
            do {
                let result = try await body(server)
                try? await client.shutdown()
                await running.stop()
                return result
            } catch {
                try? await client.shutdown()
                await running.stop()
                throw error
            }
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// One request; throws when no answer came within `timeout`.
    func send(
        _ method: HTTPMethod, _ path: String, scheme: String = "http", headers: [(String, String)] = [], body: String? = nil,
        timeout: TimeAmount = .seconds(30)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: "\(scheme)://127.0.0.1:\(port)\(path)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, text: String(buffer: bytes))
    }

    /// A sign-in posted the way any client can: it sets the CSRF cookie itself (under both the
    /// plain and the `__Host-` name) and puts the same value in the form.
    func signIn(
        tenantID: String, email: String, password: String, forwardedFor: String? = nil, timeout: TimeAmount = .seconds(30)
    ) async throws -> Answer {
        let csrf = UUID().uuidString
        var headers = [
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Cookie", "provisio_console_csrf=\(csrf); __Host-provisio_console_csrf=\(csrf)"),
        ]
        if let forwardedFor { headers.append(("X-Forwarded-For", forwardedFor)) }
        let form = ConsoleSession.encode([("csrf", csrf), ("tenant", tenantID), ("email", email), ("password", password)])
        return try await send(.POST, "/console/sign-in", headers: headers, body: form, timeout: timeout)
    }
}
