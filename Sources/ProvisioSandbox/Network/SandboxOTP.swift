import Foundation

/// A one-time code the network issued for a pending token: six digits, valid five minutes.
public struct SandboxOTP: Sendable, Hashable, CustomStringConvertible {
    public static let lifetime: TimeInterval = 5 * 60
    public static let digits = 6
    /// Wrong codes allowed before the token is locked against OTP.
    public static let attemptLimit = 3

    public let networkTokenRef: String
    public let code: String
    public let expiresAt: Date
    /// The channel the cardholder chose, and the challenge's id the issuer is told.
    public internal(set) var channel: SandboxOTPChannel = .sms
    public internal(set) var challengeID: String = SandboxRandom.identifier(prefix: "sbx_chl_")

    /// Valid strictly before `expiresAt`.
    public func isExpired(at time: Date) -> Bool { time >= expiresAt }

    /// The code itself stays out of logs.
    public var description: String { "SandboxOTP(ref: \(networkTokenRef), expires: \(expiresAt))" }

    static func generate(networkTokenRef: String, at time: Date) -> SandboxOTP {
        var generator = SystemRandomNumberGenerator()
        let value = Int.random(in: 0..<1_000_000, using: &generator)
        let code = String(repeating: "0", count: digits - String(value).count) + String(value)
        return SandboxOTP(networkTokenRef: networkTokenRef, code: code, expiresAt: time.addingTimeInterval(lifetime))
    }
}
