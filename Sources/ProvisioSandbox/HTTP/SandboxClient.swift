import AsyncHTTPClient
import Foundation
import ProvisioCore

/// The sandbox's control API over HTTP (`provisio sandbox serve`): what a test, the demo or an
/// issuer's own tooling does as the cardholder and their devices — begin an add on the iPhone
/// or Watch, hand Apple the issuer's answer, read passes and tokens, verify, report events.
///
/// A plain `Sendable` value over AsyncHTTPClient's shared, pooled client. Every refusal is
/// thrown as the `ProvisioError` the service answered (its code kept); a transport failure is
/// `sandbox_unreachable`.
public struct SandboxClient: Sendable {
    /// Where the sandbox listens, e.g. `http://127.0.0.1:8090` (no trailing `/sandbox/v1`).
    public let baseURL: String
    private let apiKey: String
    private let client: HTTPClient
    private let timeout: Duration

    /// Token and pass lists grow with a long-running sandbox; anything beyond this is not its.
    static let maximumAnswerBytes = 8 * 1024 * 1024

    public init(baseURL: String, apiKey: String, client: HTTPClient = .shared, timeout: Duration = .seconds(10)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.apiKey = apiKey
        self.client = client
        self.timeout = timeout
    }

    // MARK: - Devices and adding a card

    /// The iPhone, then the paired Watch.
    public func devices() async throws -> [SandboxWire.Device] {
        try await call(.GET, "/devices", answer: SandboxWire.DeviceList.self).devices
    }

    /// PassKit's side of "Add to Apple Wallet" on `kind`: the chain, nonce and nonce signature
    /// the app sends to its issuer.
    public func beginAdd(
        on kind: SandboxDeviceKind, scheme: EncryptionScheme = .eccV2, primaryAccountIdentifier: String? = nil
    ) async throws -> SandboxWire.AddSession {
        try await call(
            .POST, "/devices/\(Self.segment(kind.rawValue))/add-sessions",
            body: SandboxWire.BeginAddRequest(scheme: scheme, primaryAccountIdentifier: primaryAccountIdentifier),
            answer: SandboxWire.AddSession.self)
    }

    /// Hands Apple the issuer's answer for a session (Provisio's `apple-pay` answer). A red
    /// decision throws `sandbox_network_declined`; `outcome(sessionID:)` still tells why.
    public func submit(sessionID: String, response: SandboxWire.SubmissionRequest) async throws -> SandboxWire.Submission {
        try await call(
            .POST, "/add-sessions/\(Self.segment(sessionID))/submission", body: response, answer: SandboxWire.Submission.self)
    }

    /// What became of a submitted session at the network, red included.
    public func outcome(sessionID: String) async throws -> SandboxWire.Outcome {
        try await call(.GET, "/outcomes/\(Self.segment(sessionID))", answer: SandboxWire.Outcome.self)
    }

    // MARK: - Passes

    /// The passes on one device or both (iPhone first), optionally only one card's.
    public func passes(on kind: SandboxDeviceKind? = nil, primaryAccountIdentifier: String? = nil) async throws
        -> [SandboxWire.Pass]
    {
        var query: [String] = []
        if let kind { query.append("device=\(Self.segment(kind.rawValue))") }
        if let primaryAccountIdentifier { query.append("primary_account_identifier=\(Self.segment(primaryAccountIdentifier))") }
        let path = "/passes" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return try await call(.GET, path, answer: SandboxWire.PassList.self).passes
    }

    public func pass(serialNumber: String) async throws -> SandboxWire.Pass {
        try await call(.GET, "/passes/\(Self.segment(serialNumber))", answer: SandboxWire.Pass.self)
    }

    // MARK: - Scenario settings

    /// What the network and Wallet say about the next requests for cards ending in `last4`
    /// (every card when nil). Scores outside 1…5 are refused with `invalid_risk_assessment`.
    @discardableResult
    public func setRisk(_ risk: RiskAssessment, forLast4 last4: String? = nil) async throws -> SandboxWire.Risk {
        try await call(.PUT, "/risk", body: SandboxWire.Risk(risk, last4: last4), answer: SandboxWire.Risk.self)
    }

    // MARK: - Tokens

    /// Every token of the network, oldest first.
    public func tokens() async throws -> [SandboxWire.Token] {
        try await call(.GET, "/tokens", answer: SandboxWire.TokenList.self).tokens
    }

    public func token(networkTokenRef: String) async throws -> SandboxWire.Token {
        try await call(.GET, "/tokens/\(Self.segment(networkTokenRef))", answer: SandboxWire.Token.self)
    }

    /// Flow 3a: the app hands Wallet the issuer's activation data (TAV) for a pending token.
    @discardableResult
    public func verifyActivationData(networkTokenRef: String, activationData: String) async throws -> SandboxWire.Token {
        try await call(
            .POST, "/tokens/\(Self.segment(networkTokenRef))/tav",
            body: SandboxWire.TAVRequest(activationData: activationData), answer: SandboxWire.Token.self)
    }

    /// Flow 3b: the network issues a one-time code; the sandbox, as the cardholder's phone,
    /// shows it.
    public func requestOTP(networkTokenRef: String) async throws -> SandboxWire.OTPChallenge {
        try await call(
            .POST, "/tokens/\(Self.segment(networkTokenRef))/otp", body: SandboxWire.EmptyRequest(),
            answer: SandboxWire.OTPChallenge.self)
    }

    @discardableResult
    public func verifyOTP(networkTokenRef: String, code: String) async throws -> SandboxWire.Token {
        try await call(
            .POST, "/tokens/\(Self.segment(networkTokenRef))/otp/verification",
            body: SandboxWire.OTPVerificationRequest(code: code), answer: SandboxWire.Token.self)
    }

    /// The cardholder removes the card from Wallet, loses the device, or the token expires.
    @discardableResult
    public func report(event: SandboxWire.TokenEventRequest.Event, networkTokenRef: String) async throws
        -> SandboxWire.Token
    {
        try await call(
            .POST, "/tokens/\(Self.segment(networkTokenRef))/events", body: SandboxWire.TokenEventRequest(event: event),
            answer: SandboxWire.Token.self)
    }

    // MARK: - Certificate authority

    /// The sandbox CA's root certificate (PEM): what Provisio must trust (`--trust-anchor`)
    /// to accept the sandbox's certificate chains.
    public func rootCertificatePEM() async throws -> String {
        String(decoding: try await send(.GET, "/ca/root.pem", body: nil, what: "the CA root"), as: UTF8.self)
    }

    // MARK: - HTTP

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// A path segment or query value with everything but unreserved characters escaped.
    private static func segment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private enum Method: String {
        case GET, POST, PUT
    }

    private func call<Answer: Decodable>(_ method: Method, _ path: String, answer: Answer.Type) async throws -> Answer {
        try decode(answer, from: try await send(method, path, body: nil, what: "\(method.rawValue) \(path)"), path: path)
    }

    private func call<Answer: Decodable>(
        _ method: Method, _ path: String, body: some Encodable, answer: Answer.Type
    ) async throws -> Answer {
        let data = try SandboxWire.makeEncoder().encode(body)
        return try decode(answer, from: try await send(method, path, body: data, what: "\(method.rawValue) \(path)"), path: path)
    }

    private func decode<Answer: Decodable>(_ type: Answer.Type, from answer: Data, path: String) throws -> Answer {
        do {
            return try SandboxWire.makeDecoder().decode(Answer.self, from: answer)
        } catch {
            throw ProvisioError(.sandboxAnswerMalformed, "The sandbox's answer for \(path) is not the expected JSON.")
        }
    }

    /// Sends one request under `/sandbox/v1` and returns the body of a 2xx answer; anything
    /// else is a `ProvisioError`.
    private func send(_ method: Method, _ path: String, body: Data?, what: String) async throws -> Data {
        var request = HTTPClientRequest(url: baseURL + "/sandbox/v1" + path)
        switch method {
        case .GET: request.method = .GET
        case .POST: request.method = .POST
        case .PUT: request.method = .PUT
        }
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        request.headers.add(name: "User-Agent", value: "Provisio-Sandbox-Client/1")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(Array(body))
        }

        let status: Int
        let answer: Data
        do {
            let response = try await client.execute(request, timeout: .seconds(timeout.components.seconds))
            status = Int(response.status.code)
            answer = Data(try await response.body.collect(upTo: Self.maximumAnswerBytes).readableBytesView)
        } catch {
            // The transport error may quote the URL, never a body, so it is safe to name.
            throw ProvisioError(.sandboxUnreachable, "The sandbox at \(baseURL) could not be reached for \(what) (\(error)).")
        }
        guard (200..<300).contains(status) else {
            throw Self.refusal(status: status, answer: answer, what: what)
        }
        return answer
    }

    /// The sandbox's own error keeps its code, so a caller can tell `sandbox_otp_locked` from
    /// `sandbox_otp_invalid`.
    private static func refusal(status: Int, answer: Data, what: String) -> ProvisioError {
        if let error = WireError.decode(from: answer) { return error.provisioError }
        return ProvisioError(
            .sandboxAnswerMalformed, "The sandbox refused \(what) with HTTP \(status) and no error object.")
    }
}
