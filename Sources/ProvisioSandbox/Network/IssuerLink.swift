import ProvisioCore

/// The card network's line to the issuer, in the dialect the issuer speaks: Provisio's own
/// network API (`IssuerConnection`) or Mastercard MDES's Issuer Outbound API
/// (`SandboxMDESIssuerConnection`). `SandboxNetworkTokenService` plays the network the same way
/// over either; each conformance maps the network's questions and reports onto its wire.
public protocol IssuerLink: Sendable {
    /// A fresh reference for a new token, in the form the dialect uses (MDES's
    /// `tokenUniqueReference` is 48 to 64 characters).
    func makeTokenReference() -> String

    /// Asks the issuer to decide on a new token.
    func requestDecision(_ request: IssuerDecisionRequest) async throws -> IssuerDecision

    /// Tells the issuer about a change the network made or saw on a token.
    func report(event: NetworkTokenEvent, reasonCode: String?, token: NetworkToken) async throws

    /// Hands a one-time code to the issuer to deliver, and returns where it went (masked).
    func relayOTP(_ otp: SandboxOTP, token: NetworkToken) async throws -> [IssuerConnection.OTPChannel]

    /// True when the issuer, not the network, checks the codes the cardholder types (MDES's
    /// `validateActivationCode`); the network then always relays its codes to the issuer.
    var checksActivationCodes: Bool { get }

    /// The issuer's verdict on a typed code; only called when `checksActivationCodes`.
    func checkActivationCode(_ code: String, token: NetworkToken) async throws -> ActivationCodeVerdict
}

/// What the issuer said of a code the cardholder typed.
public enum ActivationCodeVerdict: String, Sendable, Hashable {
    case correct
    case incorrect
    /// Wrong, and the last attempt: the code is void.
    case attemptsExhausted = "attempts_exhausted"
    case expired
}

extension IssuerConnection: IssuerLink {
    public func makeTokenReference() -> String { SandboxRandom.identifier(prefix: "sbx_ntr_") }

    public func report(event: NetworkTokenEvent, reasonCode: String?, token: NetworkToken) async throws {
        try await report(event: event, reasonCode: reasonCode, networkTokenRef: token.networkTokenRef)
    }

    public func relayOTP(_ otp: SandboxOTP, token: NetworkToken) async throws -> [OTPChannel] {
        try await relayOTP(otp, device: token.device, wallet: token.wallet)
    }

    /// In Provisio's dialect the network checks the code itself and reports `otp_verified`.
    public var checksActivationCodes: Bool { false }

    public func checkActivationCode(_ code: String, token: NetworkToken) async throws -> ActivationCodeVerdict {
        throw ProvisioError(.sandboxOTPUnavailable, "Provisio's network API leaves checking codes to the network.")
    }
}
