import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioSandboxServer
import Testing

@testable import ProvisioServer

/// A live Provisio (the issuer) and, next to it on loopback, the sandbox as its own HTTP
/// service: its network reaches Provisio over HTTP with a network key, and the test drives it
/// only over HTTP — typed through `SandboxClient`, raw through `raw(…)`, whose answers are all
/// kept so a test can look for a PAN in any of them.
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
    let answers: AnswerLog

    static let pan = "4111111111111111"

    /// Trusted scores; the wallet's recommendation decides green, yellow or red.
    static func risk(_ recommendation: DecisionOutcome) -> RiskAssessment {
        RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: recommendation)
    }

    /// Runs `body` with the sandbox service up; stops it afterwards.
    static func run<T: Sendable>(
        _ server: TestServer, defaultRisk: RiskAssessment = risk(.approve),
        _ body: @Sendable (SandboxHTTPHarness) async throws -> T
    ) async throws -> T {
        let setup = try await SandboxTenantWorld.make(server, pan: pan, defaultRisk: defaultRisk)
        let (issuerAPIKey, cardID, world) = (setup.apiKey, setup.cardID, setup.world)
        let sandboxKey = "sbx_key_test_" + UUID().uuidString.lowercased()

        return try await SandboxServiceRunner.run(
            world: world, apiKey: sandboxKey, logger: server.logs.logger(label: "sandbox")
        ) { url in
            let port = try #require(URLComponents(string: url)?.port)
            return try await body(
                SandboxHTTPHarness(
                    server: server, issuerAPIKey: issuerAPIKey, cardID: cardID, world: world, sandboxKey: sandboxKey,
                    port: port, client: SandboxClient(baseURL: url, apiKey: sandboxKey), answers: AnswerLog()))
        }
    }

    // MARK: - Provisio's side

    /// What the issuer app does with a session: Provisio's `apple-pay` endpoint builds the
    /// answer, whose fields are exactly the sandbox's submission body.
    func issuerAnswer(for session: SandboxWire.AddSession) async throws -> SandboxWire.SubmissionRequest {
        let json = try await issuerAnswerJSON(for: session)
        return SandboxWire.SubmissionRequest(
            encryptedPassData: try #require(json["encrypted_pass_data"] as? String),
            activationData: try #require(json["activation_data"] as? String),
            ephemeralPublicKey: json["ephemeral_public_key"] as? String, wrappedKey: json["wrapped_key"] as? String)
    }

    /// Provisio's `apple-pay` answer as it came, to hand on to the sandbox as it is.
    func issuerAnswerJSON(for session: SandboxWire.AddSession) async throws -> [String: Any] {
        let answer = try await server.client.post(
            "/v1/cards/\(cardID)/provisioning/apple-pay", token: issuerAPIKey,
            json: [
                "certificates": session.certificates, "nonce": session.nonce, "nonce_signature": session.nonceSignature,
                "encryption_scheme": session.scheme.rawValue, "device_type": session.device.deviceType.rawValue,
            ])
        #expect(answer.status == 200, "\(answer.text)")
        return try #require(answer.json)
    }

    /// "Add to Apple Wallet" end to end over HTTP: the device's session, Provisio's answer, Apple.
    func add(on kind: SandboxDeviceKind = .phone, scheme: EncryptionScheme = .eccV2) async throws -> SandboxWire.Submission {
        let session = try await client.beginAdd(on: kind, scheme: scheme, primaryAccountIdentifier: cardID)
        return try await client.submit(sessionID: session.id, response: try await issuerAnswer(for: session))
    }

    /// Provisio's token, as the issuer's backend lists it.
    func issuerToken(_ id: String) async throws -> [String: Any] {
        let listed = try await server.client.get("/v1/tokens?card_id=\(cardID)", token: issuerAPIKey)
        #expect(listed.status == 200, "\(listed.text)")
        let tokens = try #require(listed.json?["data"] as? [[String: Any]])
        return try #require(tokens.first { $0["id"] as? String == id })
    }

    /// A TAV from Provisio for a pending token.
    func activationData(issuerTokenID: String) async throws -> String {
        let activation = try await server.client.post(
            "/v1/tokens/\(issuerTokenID)/activation", token: issuerAPIKey, json: ["mode": "tav"])
        #expect(activation.status == 200, "\(activation.text)")
        return try #require(activation.json?["activation_data"] as? String)
    }

    // MARK: - Raw HTTP to the sandbox

    /// One request to the sandbox with its API key (or `authorization` as given, nil for none),
    /// on a connection of its own.
    func raw(
        _ method: HTTPRequest.Method, _ path: String, json: Any? = nil, body: Data? = nil,
        authorization: String?? = .none
    ) async throws -> APIClient.Response {
        var fields = HTTPFields()
        let data = try body ?? json.map { try JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]) }
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
            return APIClient.Response(
                status: answer.status.code, headers: answer.headers, body: Data((answer.body ?? ByteBuffer()).readableBytesView))
        }
        await answers.record(response.text)
        // Every answer of an operation the document lists is what the document says, down to
        // the error codes each response lists, and an accepted request was one it describes;
        // other paths are the router's 401 and 404.
        if Self.spec.operation(method.rawValue, path) != nil {
            var conformance = OpenAPIConformance(spec: Self.spec)
            conformance.check(response, method.rawValue, path, request: (200..<300).contains(response.status) ? json : nil)
        }
        return response
    }

    /// The sandbox's own document, as the service bundles and serves it.
    static let spec: OpenAPISpec = {
        let url = OpenAPISpec.sourceURL.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("ProvisioSandboxServer/Resources/sandbox-openapi.yaml")
        do {
            return try OpenAPISpec(data: try Data(contentsOf: url))
        } catch {
            fatalError("sandbox-openapi.yaml cannot be read: \(error)")
        }
    }()

    /// Every token PAN the network issued, in full (held in process, never on the wire).
    func tokenPANs() async -> [String] {
        await world.network.allTokens().map(\.tokenPrimaryAccountNumber.unmaskedDigits)
    }
}

/// The bodies of every raw answer, for a PAN search at the end of a test.
actor AnswerLog {
    private(set) var bodies: [String] = []

    func record(_ body: String) {
        bodies.append(body)
    }
}

extension APIClient.Response {
    /// `{"error": {"code", "message", "request_id"}}` and nothing else, Provisio's shape, with the
    /// request id of the `X-Request-Id` header.
    var hasSandboxErrorShape: Bool {
        guard let json, json.count == 1, let error = json["error"] as? [String: Any] else { return false }
        guard let requestID = error["request_id"] as? String, requestID.hasPrefix("req_"), requestID.count == 28 else {
            return false
        }
        return Set(error.keys) == ["code", "message", "request_id"] && error["code"] is String
            && error["message"] is String && header("X-Request-Id") == requestID
    }

    var errorMessage: String? { (json?["error"] as? [String: Any])?["message"] as? String }
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
