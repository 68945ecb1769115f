import AsyncHTTPClient
import Foundation
import ProvisioCore

/// The card network's line to one issuer's Provisio: its network API over HTTP, authenticated
/// with the network key (`Bearer prv_nk_…`) the issuer gave the network.
///
/// A plain `Sendable` value over AsyncHTTPClient's shared, pooled client.
public struct IssuerConnection: Sendable {
    /// Where Provisio listens, e.g. `http://127.0.0.1:8080` (no trailing `/v1`).
    public let baseURL: String
    private let networkKey: String
    private let client: HTTPClient
    private let timeout: Duration

    /// Answers larger than this are not Provisio's; reading stops there.
    static let maximumAnswerBytes = 256 * 1024

    public init(baseURL: String, networkKey: String, client: HTTPClient = .shared, timeout: Duration = .seconds(10)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.networkKey = networkKey
        self.client = client
        self.timeout = timeout
    }

    /// Asks the issuer to decide on a new token. Provisio answers a retried request (same
    /// `network_token_ref`) with the token and decision it already made.
    public func requestDecision(_ request: IssuerDecisionRequest) async throws -> IssuerDecision {
        let body = try JSONEncoder().encode(request.wire)
        let answer = try await post("/v1/network/token-requests", body: body, what: "the token request")
        do {
            return try JSONDecoder().decode(IssuerDecision.self, from: answer)
        } catch {
            throw ProvisioError(.sandboxIssuerAnswerMalformed, "Provisio's decision is not the expected JSON object.")
        }
    }

    /// Tells the issuer about a change the network made or saw on a token.
    public func report(event: NetworkTokenEvent, reasonCode: String? = nil, networkTokenRef: String) async throws {
        var fields = ["event": event.rawValue]
        if let reasonCode { fields["reason_code"] = reasonCode }
        // The ref goes into the path: escape everything but unreserved characters.
        let ref = networkTokenRef.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? networkTokenRef
        _ = try await post(
            "/v1/network/tokens/\(ref)/events", body: try JSONEncoder().encode(fields), what: "the \(event.rawValue) event")
    }

    /// One channel the issuer sent a one-time code to, masked for the cardholder's screen.
    public struct OTPChannel: Codable, Sendable, Hashable {
        public var type: String
        public var masked: String
    }

    /// Flow 3b: hands a one-time code to the issuer (through Provisio's signed webhook) and
    /// returns where the issuer sent it.
    public func relayOTP(_ otp: SandboxOTP) async throws -> [OTPChannel] {
        struct Body: Encodable {
            var code: String
            var expiresAt: String
            enum CodingKeys: String, CodingKey {
                case code
                case expiresAt = "expires_at"
            }
        }
        struct Answer: Decodable { var channels: [OTPChannel] }
        let ref = otp.networkTokenRef.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? otp.networkTokenRef
        let body = try JSONEncoder().encode(Body(code: otp.code, expiresAt: otp.expiresAt.formatted(.iso8601)))
        let answer = try await post("/v1/network/tokens/\(ref)/otp", body: body, what: "the one-time code")
        guard let channels = try? JSONDecoder().decode(Answer.self, from: answer).channels else {
            throw ProvisioError(.sandboxIssuerAnswerMalformed, "Provisio's OTP answer is not {\"channels\": […]}.")
        }
        return channels
    }

    // MARK: - HTTP

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// POSTs JSON and returns the body of a 2xx answer; anything else is a `ProvisioError`.
    private func post(_ path: String, body: Data, what: String) async throws -> Data {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer \(networkKey)")
        request.headers.add(name: "User-Agent", value: "Provisio-Sandbox-Network/1")
        request.body = .bytes(Array(body))

        let status: Int
        let answer: Data
        do {
            let response = try await client.execute(request, timeout: .seconds(timeout.components.seconds))
            status = Int(response.status.code)
            let buffer = try await response.body.collect(upTo: Self.maximumAnswerBytes)
            answer = Data(buffer.readableBytesView)
        } catch {
            // The transport error may quote the URL, never the body, so it is safe to name.
            throw ProvisioError(
                .sandboxIssuerUnreachable, "Provisio at \(baseURL) could not be reached for \(what) (\(error)).")
        }
        guard (200..<300).contains(status) else {
            throw Self.refusal(status: status, answer: answer, what: what)
        }
        return answer
    }

    /// Provisio's own error (`{"error": {"code", "message"}}`) keeps its code, so the caller can
    /// tell `card_not_found` from `token_invalid_transition`; anything else is `sandbox_issuer_error`.
    /// A kept code is a received one: the sandbox relays it with 502, an upstream's refusal.
    private static func refusal(status: Int, answer: Data, what: String) -> ProvisioError {
        if let error = WireError.decode(from: answer) {
            return ProvisioError(
                ProvisioError.Code(received: error.code), "Provisio refused \(what) (HTTP \(status)): \(error.message)")
        }
        return ProvisioError(.sandboxIssuerError, "Provisio refused \(what) with HTTP \(status) and no error object.")
    }
}

extension ProvisioError.Code {
    public static let sandboxIssuerUnreachable = Self("sandbox_issuer_unreachable", status: .badGateway)
    public static let sandboxIssuerError = Self("sandbox_issuer_error", status: .badGateway)
    public static let sandboxIssuerAnswerMalformed = Self("sandbox_issuer_answer_malformed", status: .badGateway)
}
