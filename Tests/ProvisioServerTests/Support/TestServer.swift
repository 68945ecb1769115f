import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioServer
import Testing

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
    /// Bytes for what the generated client cannot send on purpose (see `RawClient`).
    let raw: RawClient
    /// Every answer the generated clients of `api(_:)` received.
    let answers: ServedAnswers

    var ca: SandboxCertificateAuthority { Self.sandboxCA }

    static func run<T: Sendable>(
        _ engine: TestEngine, clock: TestClock = TestClock(), outbound: OutboundHTTPClient? = nil,
        limits: HTTPLimits = .standard, secureConsoleCookies: Bool = true, _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        let logs = LogCapture()
        return try await TestDatabase.with(engine, logger: logs.logger(label: "db")) { database in
            let keys = ProvisioKeys.generate()
            let networkKey = P256.KeyAgreement.PrivateKey()
            var services = ServerServices(
                handle: database.handle, keys: keys,
                chainValidator: CachingChainValidator(validator: .production(additionalAnchors: [sandboxCA.root])),
                networkKey: networkKey.publicKey, networkKeyID: "net-test",
                outbound: outbound ?? OutboundHTTPClient(policy: .development),
                passwordHasher: BcryptPasswordHasher(cost: 4), clock: clock)
            services.secureConsoleCookies = secureConsoleCookies
            let configured = services
            let app = ProvisioHTTPApplication.make(
                services: configured, host: "127.0.0.1", port: 0, limits: limits, logger: logs.logger(label: "provisio"))
            let location = database.location
            return try await app.test(.live) { client in
                let raw = RawClient(port: try #require(client.port), serverIdleTimeout: limits.idleTimeout)
                configured.publicURL.withLock { $0 = "http://127.0.0.1:\(raw.port ?? 0)" }
                let server = TestServer(
                    services: configured, clock: clock, keys: keys, networkKey: networkKey, logs: logs, database: location,
                    engine: engine, raw: raw, answers: ServedAnswers())
                do {
                    let result = try await body(server)
                    await raw.close()
                    return result
                } catch {
                    await raw.close()
                    throw error
                }
            }
        }
    }

    /// A tenant and its API key.
    func makeTenant(_ name: String = "Acme Bank") async throws -> (id: String, apiKey: String) {
        let (tenant, apiKey) = try await services.access.createTenant(name: name)
        return (tenant.id, apiKey)
    }

    /// An operator of the support console for the tenant, and their password.
    func makeOperator(tenantID: String, role: OperatorRole, email: String? = nil) async throws -> (
        id: String, email: String, password: String
    ) {
        let email = email ?? "\(role.rawValue)-\(UUID().uuidString.prefix(8).lowercased())@bank.example"
        let (record, password) = try await services.operators.create(
            tenantID: tenantID, email: email, role: role, password: "correct horse battery \(role.rawValue)")
        return (record.id, record.email, password)
    }

    /// Provisio's generated client over HTTP to this server, sending `token` as its bearer
    /// credential (none when nil). Every answer is held to the document (`DocumentedAnswers`).
    func api(_ token: String? = nil) -> Client {
        let middlewares: [any ClientMiddleware] = token.map { [BearerToken(token: $0)] } ?? []
        return Client(
            serverURL: URL(string: "http://127.0.0.1:\(raw.port ?? 0)")!, configuration: APIJSON.configuration,
            transport: TestHTTPClient.transport, middlewares: middlewares + [DocumentedAnswers(log: answers)])
    }

    /// Creates a card through the API.
    func makeCard(
        apiKey: String, customerRef: String = "cust_1", pan: String = "4111111111111111", expiryYear: Int = 2030,
        accountRef: String? = nil, productTitle: String? = nil, network: String? = nil, cardArtURL: String? = nil
    ) async throws -> Components.Schemas.Card {
        let request = Components.Schemas.CreateCardRequest(
            customerRef: customerRef, accountRef: accountRef, pan: pan, expiryMonth: 12, expiryYear: expiryYear,
            cardholderName: "Jane Appleseed", productTitle: productTitle, network: network, cardArtUrl: cardArtURL)
        let created = try await api(apiKey).createCard(body: .json(request))
        guard case .created(let answer) = created else { throw TestSetupError("card creation failed: \(created)") }
        return try answer.body.json
    }

    /// What an app sends after PassKit's `generateRequestWithCertificateChain`.
    func applePayRequest(scheme: EncryptionScheme = .eccV2, deviceType: Components.Schemas.DeviceType? = .phone) throws
        -> Components.Schemas.ApplePayRequest
    {
        Components.Schemas.ApplePayRequest(
            certificates: try ca.chainBase64(for: scheme), nonce: "3f2a9107", nonceSignature: "MEUCIQDx",
            encryptionScheme: scheme.rawValue, deviceType: deviceType)
    }
}
