import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import ProvisioAPI
import ProvisioConnectorAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioSandboxAPI
import ProvisioSandboxServer
import Testing

@testable import ProvisioServer

/// A live Provisio (the issuer) and, next to it on loopback, the sandbox as its own HTTP
/// service: its network reaches Provisio over HTTP with a network key, and the test drives it
/// only over HTTP — typed through `SandboxClient` and the generated clients (`api`, and
/// `connector` for the network's connector API), raw through `raw(…)`. Every answer of these is
/// held to its document (`AnswerContract.sandbox`, `.connector`) and kept, so a test can look for
/// a PAN in any of them.
struct SandboxHTTPHarness: Sendable {
    let server: TestServer
    /// The tenant's API key at Provisio.
    let issuerAPIKey: String
    let cardID: String
    let world: SandboxHTTPWorld
    /// The key the sandbox service demands.
    let sandboxKey: String
    /// Where the service said it listens (its `onListening` callback).
    let port: Int
    let client: SandboxClient
    /// The generated client of the sandbox's document, with the sandbox's key.
    let api: ProvisioSandboxAPI.Client
    /// The generated client of the connector's document (what Provisio calls), with the same key.
    let connector: ProvisioConnectorAPI.Client
    let answers: ServedAnswers

    static let pan = "4111111111111111"

    /// Trusted scores; the wallet's recommendation decides green, yellow or red.
    static func risk(_ recommendation: DecisionOutcome) -> RiskAssessment {
        RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: recommendation)
    }

    /// The same, as `SandboxClient` sets it: for cards ending in `last4`, or every card when nil.
    static func wireRisk(_ recommendation: SandboxClient.DecisionOutcome, last4: String? = nil) -> SandboxClient.Risk {
        SandboxClient.Risk(last4: last4, deviceScore: 5, accountScore: 5, walletRecommendation: recommendation)
    }

    /// Runs `body` with the sandbox service up; stops it afterwards.
    static func run<T: Sendable>(
        _ server: TestServer, defaultRisk: RiskAssessment = risk(.approve), googleKey: SandboxGoogleKey? = nil,
        _ body: @Sendable (SandboxHTTPHarness) async throws -> T
    ) async throws -> T {
        let setup = try await SandboxTenantWorld.make(server, pan: pan, defaultRisk: defaultRisk, googleKey: googleKey)
        let (issuerAPIKey, cardID, world) = (setup.apiKey, setup.cardID, setup.world)
        let sandboxKey = "sbx_key_test_" + UUID().uuidString.lowercased()

        return try await SandboxServiceRunner.run(
            world: world, apiKey: sandboxKey, logger: server.logs.logger(label: "sandbox")
        ) { url in
            let port = try #require(URLComponents(string: url)?.port)
            let answers = ServedAnswers()
            let api = ProvisioSandboxAPI.Client(
                serverURL: try #require(URL(string: url)), configuration: APIJSON.configuration,
                transport: TestHTTPClient.transport,
                middlewares: [BearerToken(token: sandboxKey), DocumentedAnswers(contract: .sandbox, log: answers)])
            let connector = ProvisioConnectorAPI.Client(
                serverURL: try #require(URL(string: url)), configuration: APIJSON.configuration,
                transport: TestHTTPClient.transport,
                middlewares: [BearerToken(token: sandboxKey), DocumentedAnswers(contract: .connector, log: answers)])
            return try await body(
                SandboxHTTPHarness(
                    server: server, issuerAPIKey: issuerAPIKey, cardID: cardID, world: world, sandboxKey: sandboxKey,
                    port: port, client: SandboxClient(baseURL: url, apiKey: sandboxKey), api: api,
                    connector: connector, answers: answers))
        }
    }

    // MARK: - Provisio's side

    /// What the issuer app does with a session: Provisio's `apple-pay` endpoint builds the
    /// answer, whose fields are exactly the sandbox's submission body.
    func issuerAnswer(for session: SandboxClient.AddSession) async throws -> SandboxClient.SubmissionRequest {
        let answer = try await server.api(issuerAPIKey).provisionApplePay(
            path: .init(id: cardID),
            body: .json(
                .init(
                    certificates: session.certificates, nonce: session.nonce, nonceSignature: session.nonceSignature,
                    encryptionScheme: session.scheme.rawValue,
                    deviceType: session.device == .phone ? .phone : .watch))
        ).ok.body.json
        return SandboxClient.SubmissionRequest(
            encryptedPassData: answer.encryptedPassData, activationData: answer.activationData,
            ephemeralPublicKey: answer.ephemeralPublicKey, wrappedKey: answer.wrappedKey)
    }

    /// "Add to Apple Wallet" end to end over HTTP: the device's session, Provisio's answer, Apple.
    func add(on kind: SandboxClient.DeviceKind = .phone, scheme: SandboxClient.EncryptionScheme = .eccV2) async throws
        -> SandboxClient.Submission
    {
        let session = try await client.beginAdd(on: kind, scheme: scheme, primaryAccountIdentifier: cardID)
        return try await client.submit(sessionID: session.id, response: try await issuerAnswer(for: session))
    }

    /// Provisio's token, as the issuer's backend lists it.
    func issuerToken(_ id: String) async throws -> ProvisioAPI.Components.Schemas.Token {
        let listed = try await server.api(issuerAPIKey).listTokens(query: .init(cardId: cardID)).ok.body.json
        return try #require(listed.data.first { $0.id == id })
    }

    /// A TAV from Provisio for a pending token.
    func activationData(issuerTokenID: String) async throws -> String {
        let activation = try await server.api(issuerAPIKey).activateToken(
            path: .init(id: issuerTokenID), body: .json(.init(mode: .tav))
        ).ok.body.json
        return try #require(activation.activationData)
    }

    // MARK: - Raw HTTP to the sandbox

    /// One request to the sandbox with its API key (or `authorization` as given, nil for none),
    /// on a connection of its own: `json` for a body the generated client cannot send (off the
    /// document on purpose), `body` for bytes that are not JSON at all.
    func raw(
        _ method: HTTPRequest.Method, _ path: String, json: OpenAPIJSON? = nil, body: Data? = nil,
        authorization: String?? = .none
    ) async throws -> RawClient.Response {
        var fields = HTTPFields()
        let data = try body ?? json.map { try APIJSON.encode($0) }
        if data != nil { fields[.contentType] = "application/json" }
        switch authorization {
        case .none: fields[.authorization] = "Bearer \(sandboxKey)"
        case .some(.some(let value)): fields[.authorization] = value
        case .some(.none): break
        }
        let (headers, payload) = (fields, data.map { ByteBuffer(bytes: $0) })
        let response = try await TestClient.withClient(host: "127.0.0.1", port: port) { connection in
            let answer = try await connection.execute(
                .init(path, method: method, headers: headers, body: payload))
            return RawClient.Response(
                status: answer.status.code, headers: answer.headers, body: Data((answer.body ?? ByteBuffer()).readableBytesView))
        }
        // Every answer of an operation the document lists is what the document says, down to
        // the error codes each response lists; other paths are the router's 401 and 404.
        let contract = Self.contract(of: path)
        let operation = contract.spec.operation(method.rawValue, path)
        if operation != nil {
            let problems = contract.problems(
                method: method.rawValue, path: path, status: response.status, headers: response.headers, body: response.body)
            for problem in problems { Issue.record("\(method) \(path) → \(response.status): \(problem)") }
        }
        answers.record(
            operationID: operation?.object["operationId"]?.stringValue ?? "raw", status: response.status,
            headers: response.headers, body: response.body)
        return response
    }

    /// A body of a generated request type, sent raw: a well-formed request (the type holds it to
    /// the document) whose refusal a test reads from the bytes.
    func raw(
        _ method: HTTPRequest.Method, _ path: String, request: some Encodable, authorization: String?? = .none
    ) async throws -> RawClient.Response {
        try await raw(method, path, body: try APIJSON.encode(request), authorization: authorization)
    }

    /// The sandbox's own document, as the service bundles and serves it.
    static var spec: OpenAPISpec { AnswerContract.sandbox.spec }

    /// The document a path belongs to: the connector's (`/network/v1/…`), Google Wallet's or
    /// Samsung Wallet's (each with its own document), or the sandbox's own.
    static func contract(of path: String) -> AnswerContract {
        if path.hasPrefix("/network/") { return .connector }
        if path.hasPrefix("/sandbox/v1/google-wallet") || path == "/openapi/google-wallet.yaml" { return .googleWallet }
        if path.hasPrefix("/sandbox/v1/samsung-wallet") || path == "/openapi/samsung-wallet.yaml" { return .samsungWallet }
        return .sandbox
    }

    /// Every token PAN the network issued, in full (held in process, never on the wire).
    func tokenPANs() async -> [String] {
        await world.network.allTokens().map(\.tokenPrimaryAccountNumber.unmaskedDigits)
    }
}

/// The `ProvisioError` an async call throws (nil when it succeeds; any other error is an issue).
func sandboxError<T>(_ body: () async throws -> T) async -> ProvisioError? {
    do {
        _ = try await body()
        return nil
    } catch let error as ProvisioError {
        return error
    } catch {
        Issue.record("Unexpected error \(error)")
        return nil
    }
}
