import AsyncHTTPClient
import Foundation
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import ProvisioCore
import ProvisioSandboxAPI
import ProvisioWireClient

/// The sandbox's control API over HTTP (`provisio sandbox serve`): what a test, the demo or an
/// issuer's own tooling does as the cardholder and their devices — begin an add on the iPhone
/// or Watch, hand Apple the issuer's answer, read passes and tokens, verify, report events.
///
/// A plain `Sendable` value over the client generated from the sandbox's document, on
/// AsyncHTTPClient's shared, pooled client. Every refusal is thrown as the `ProvisioError` the
/// service answered (its code kept); a transport failure is `sandbox_unreachable`, an answer
/// that is not the documented JSON (strictly: no field it does not declare) `sandbox_answer_malformed`.
public struct SandboxClient: Sendable {
    /// Where the sandbox listens, e.g. `http://127.0.0.1:8090` (no trailing `/sandbox/v1`).
    public let baseURL: String
    private let client: Client?
    let failures: WireClientFailures
    /// What the clients of the Android wallets' documents (`SandboxClient+SamsungWallet`) are
    /// built with: the same URL, connection pool, key and answer limit.
    let serverURL: URL?
    let transport: AsyncHTTPClientTransport
    let middlewares: [any ClientMiddleware]

    /// Token and pass lists grow with a long-running sandbox; anything beyond this is not its.
    static let maximumAnswerBytes = 8 * 1024 * 1024

    /// `middlewares` run after the key's, nearest the wire (a test holds every answer to its document).
    public init(
        baseURL: String, apiKey: String, client: HTTPClient = .shared, timeout: Duration = .seconds(10),
        middlewares: [any ClientMiddleware] = []
    ) {
        let baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.baseURL = baseURL
        let transport = AsyncHTTPClientTransport(configuration: .init(client: client, timeout: TimeAmount(timeout)))
        let middlewares: [any ClientMiddleware] =
            [
                WireClientMiddleware(
                    key: apiKey, userAgent: "Provisio-Sandbox-Client/1", maximumAnswerBytes: Self.maximumAnswerBytes)
            ] + middlewares
        self.serverURL = URL(string: baseURL)
        self.transport = transport
        self.middlewares = middlewares
        self.client = serverURL.map { Client(serverURL: $0, transport: transport, middlewares: middlewares) }
        self.failures = WireClientFailures(
            unreachable: { what, cause in
                // The transport error may quote the URL, never a body, so it is safe to name.
                ProvisioError(.sandboxUnreachable, "The sandbox at \(baseURL) could not be reached for \(what) (\(cause)).")
            },
            malformed: { what in
                ProvisioError(.sandboxAnswerMalformed, "The sandbox's answer for \(what) is not the expected JSON.")
            },
            refused: { what, status, error in
                // The sandbox's own code is kept, so a caller can tell `sandbox_otp_locked` from
                // `sandbox_otp_invalid`.
                error?.provisioError
                    ?? ProvisioError(
                        .sandboxAnswerMalformed, "The sandbox refused \(what) with HTTP \(status) and no error object.")
            })
    }

    // MARK: - Devices and adding a card

    /// The iPhone, then the paired Watch.
    public func devices() async throws -> [Device] {
        try await call("the devices") { try await $0.listDevices().ok.body.json.devices }
    }

    /// PassKit's side of "Add to Apple Wallet" on `kind`: the chain, nonce and nonce signature
    /// the app sends to its issuer.
    public func beginAdd(
        on kind: DeviceKind, scheme: EncryptionScheme = .eccV2, primaryAccountIdentifier: String? = nil
    ) async throws -> AddSession {
        let device = SandboxDeviceKind(rawValue: kind.rawValue)?.description ?? kind.rawValue
        return try await call("an add on the \(device)") {
            try await $0.beginAdd(
                path: .init(kind: kind), body: .json(.init(scheme: scheme, primaryAccountIdentifier: primaryAccountIdentifier))
            ).created.body.json
        }
    }

    /// Hands Apple the issuer's answer for a session (Provisio's `apple-pay` answer). A red
    /// decision throws `sandbox_network_declined`; `outcome(sessionID:)` still tells why.
    public func submit(sessionID: String, response: SubmissionRequest) async throws -> Submission {
        try await call("the submission") {
            try await $0.submitAddSession(path: .init(id: sessionID), body: .json(response)).ok.body.json
        }
    }

    /// What became of a submitted session at the network, red included.
    public func outcome(sessionID: String) async throws -> Outcome {
        try await call("the outcome") { try await $0.getOutcome(path: .init(id: sessionID)).ok.body.json }
    }

    // MARK: - Passes

    /// The passes on one device or both (iPhone first), optionally only one card's.
    public func passes(on kind: DeviceKind? = nil, primaryAccountIdentifier: String? = nil) async throws -> [Pass] {
        try await call("the passes") {
            try await $0.listPasses(query: .init(device: kind, primaryAccountIdentifier: primaryAccountIdentifier))
                .ok.body.json.passes
        }
    }

    public func pass(serialNumber: String) async throws -> Pass {
        try await call("the pass") { try await $0.getPass(path: .init(serial: serialNumber)).ok.body.json }
    }

    // MARK: - Scenario settings

    /// What the network and Wallet say about the next requests for cards ending in
    /// `risk.last4` (every card when nil). Scores outside 1…5 are refused with
    /// `invalid_risk_assessment`. The answer is the setting.
    @discardableResult
    public func setRisk(_ risk: Risk) async throws -> Risk {
        try await call("the risk") { try await $0.setRisk(body: .json(risk)).ok.body.json }
    }

    // MARK: - Tokens

    /// Every token of the network, oldest first.
    public func tokens() async throws -> [Token] {
        try await call("the tokens") { try await $0.listTokens().ok.body.json.tokens }
    }

    public func token(networkTokenRef: String) async throws -> Token {
        try await call("the token") { try await $0.getToken(path: .init(ref: networkTokenRef)).ok.body.json }
    }

    /// Flow 3a: the app hands Wallet the issuer's activation data (TAV) for a pending token.
    @discardableResult
    public func verifyActivationData(networkTokenRef: String, activationData: String) async throws -> Token {
        try await call("the activation data") {
            try await $0.verifyActivationData(
                path: .init(ref: networkTokenRef), body: .json(.init(activationData: activationData))
            ).ok.body.json
        }
    }

    /// Flow 3b: the network issues a one-time code; the sandbox, as the cardholder's phone,
    /// shows it.
    public func requestOTP(networkTokenRef: String, channel: Components.Schemas.OTPRequest.ChannelPayload? = nil)
        async throws -> OTPChallenge
    {
        try await call("a one-time code") {
            try await $0.requestOneTimeCode(path: .init(ref: networkTokenRef), body: .json(.init(channel: channel))).ok.body
                .json
        }
    }

    @discardableResult
    public func verifyOTP(networkTokenRef: String, code: String) async throws -> Token {
        try await call("the one-time code") {
            try await $0.verifyOneTimeCode(path: .init(ref: networkTokenRef), body: .json(.init(code: code))).ok.body.json
        }
    }

    /// The cardholder removes the card from Wallet, loses the device, or the token expires.
    @discardableResult
    public func report(event: TokenEvent, networkTokenRef: String) async throws -> Token {
        try await call("the \(event.rawValue) event") {
            try await $0.reportTokenEvent(path: .init(ref: networkTokenRef), body: .json(.init(event: event))).ok.body.json
        }
    }

    // MARK: - Certificate authority

    /// The sandbox CA's root certificate (PEM): what Provisio must trust (`--trust-anchor`)
    /// to accept the sandbox's certificate chains.
    public func rootCertificatePEM() async throws -> String {
        try await call("the CA root") {
            let body = try await $0.getRootCertificate().ok.body.plainText
            return String(decoding: try await [UInt8](collecting: body, upTo: Self.maximumAnswerBytes), as: UTF8.self)
        }
    }

    // MARK: - Calls

    func call<Answer: Sendable>(_ what: String, _ body: (Client) async throws -> Answer) async throws -> Answer {
        guard let client else {
            throw ProvisioError(.sandboxUnreachable, "The sandbox URL \(baseURL) is not a URL.")
        }
        return try await WireCall.perform(what, failures: failures) { try await body(client) }
    }
}
