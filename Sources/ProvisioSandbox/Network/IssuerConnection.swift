import AsyncHTTPClient
import Foundation
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import ProvisioCore
import ProvisioNetworkAPI
import ProvisioWireClient

/// The card network's line to one issuer's Provisio: its network API (`/v1/network/…`) over
/// HTTP, through the client generated from Provisio's document (`ProvisioNetworkAPI`),
/// authenticated with the network key (`Bearer prv_nk_…`) the issuer gave the network.
///
/// A plain `Sendable` value over AsyncHTTPClient's shared, pooled client. Provisio's own error
/// keeps its code (a received one: relayed by the sandbox, it answers 502), so the caller can
/// tell `card_not_found` from `token_invalid_transition`; answers are read within a bound and
/// strictly (no field the document does not declare).
public struct IssuerConnection: Sendable {
    /// Where Provisio listens, e.g. `http://127.0.0.1:8080` (no trailing `/v1`).
    public let baseURL: String
    private let client: Client?

    /// Answers larger than this are not Provisio's; reading stops there.
    static let maximumAnswerBytes = 256 * 1024

    public init(baseURL: String, networkKey: String, client: HTTPClient = .shared, timeout: Duration = .seconds(10)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.client = URL(string: self.baseURL).map { url in
            Client(
                serverURL: url,
                transport: AsyncHTTPClientTransport(configuration: .init(client: client, timeout: TimeAmount(timeout))),
                middlewares: [
                    WireClientMiddleware(
                        key: networkKey, userAgent: "Provisio-Sandbox-Network/1", maximumAnswerBytes: Self.maximumAnswerBytes)
                ])
        }
    }

    /// Asks the issuer to decide on a new token. Provisio answers a retried request (same
    /// `network_token_ref`) with the token and decision it already made.
    public func requestDecision(_ request: IssuerDecisionRequest) async throws -> IssuerDecision {
        try await call("the token request") {
            IssuerDecision(withOffers: try await $0.requestTokenDecision(body: .json(.init(request))).ok.body.json)
        }
    }

    /// Tells the issuer about a change the network made or saw on a token.
    public func report(event: NetworkTokenEvent, reasonCode: String? = nil, networkTokenRef: String) async throws {
        _ = try await call("the \(event.rawValue) event") {
            try await $0.reportTokenEvent(
                path: .init(ref: networkTokenRef), body: .json(.init(event: .init(event), reasonCode: reasonCode))
            ).ok
        }
    }

    /// One channel the issuer sent a one-time code to, masked for the cardholder's screen.
    public struct OTPChannel: Sendable, Hashable {
        /// `sms`, `email`, `voice` or `app`.
        public var type: String
        public var masked: String
    }

    /// Flow 3b: hands a one-time code to the issuer (through Provisio's signed webhook) and
    /// returns where the issuer sent it.
    public func relayOTP(_ otp: SandboxOTP) async throws -> [OTPChannel] {
        try await relayOTP(otp, device: nil, wallet: nil)
    }

    /// The code with the chosen channel, the challenge, the token's device and its requestor.
    func relayOTP(_ otp: SandboxOTP, device: SandboxDevice?, wallet: Wallet?) async throws -> [OTPChannel] {
        let body = Components.Schemas.NetworkOTPRequest(
            code: otp.code, expiresAt: otp.expiresAt, channel: .init(rawValue: otp.channel.rawValue),
            challengeId: otp.challengeID,
            device: device.map {
                .init(name: SandboxOTPContext.deviceName($0.kind), os: SandboxOTPContext.os($0.kind), osVersion: "sandbox")
            },
            tokenRequestor: wallet.map(SandboxOTPContext.tokenRequestor).map { .init(id: $0.id, name: $0.name) })
        return try await call("the one-time code") {
            try await $0.relayOneTimeCode(path: .init(ref: otp.networkTokenRef), body: .json(body))
                .ok.body.json.channels.map { OTPChannel(type: $0._type.rawValue, masked: $0.masked) }
        }
    }

    // MARK: - Calls

    private static let failures = WireClientFailures(
        unreachable: { what, cause in
            // The transport error may quote the URL, never the body, so it is safe to name.
            ProvisioError(.sandboxIssuerUnreachable, "Provisio could not be reached for \(what) (\(cause)).")
        },
        malformed: { what in
            ProvisioError(.sandboxIssuerAnswerMalformed, "Provisio's answer to \(what) is not the documented JSON.")
        },
        refused: { what, status, error in
            guard let error else {
                return ProvisioError(.sandboxIssuerError, "Provisio refused \(what) with HTTP \(status) and no error object.")
            }
            return ProvisioError(
                ProvisioError.Code(received: error.code), "Provisio refused \(what) (HTTP \(status)): \(error.message)")
        })

    private func call<Answer: Sendable>(_ what: String, _ body: (Client) async throws -> Answer) async throws -> Answer {
        guard let client else {
            throw ProvisioError(.sandboxIssuerUnreachable, "Provisio's URL \(baseURL) is not a URL.")
        }
        return try await WireCall.perform(what, failures: Self.failures) { try await body(client) }
    }
}
