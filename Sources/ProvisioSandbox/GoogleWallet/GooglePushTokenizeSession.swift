import Foundation

/// One Unified Push Provisioning push, open between `beginPushTokenize` and
/// `completePushTokenize`: what the app asked for, and the credentials request Google made for
/// it, which the app hands its issuer's backend in between.
///
/// Sessions are the sandbox's: Google's server session behind `serverSessionId` is not public
/// beyond its name. Assumed (docs/android-wallets.md §7): it lives ten minutes, serves one push,
/// and a wallet holds a bounded number of them open at once.
public struct GooglePushTokenizeSession: Sendable, Hashable {
    /// The session's id: its `serverSessionId`.
    public var id: String { credentialsRequest.serverSessionID }
    /// What Google asks the app's `PaymentCredentialsGenerator` for.
    public let credentialsRequest: GeneratePaymentCredentialsRequest
    public let network: GoogleCardNetwork
    public let tokenServiceProvider: GoogleTokenServiceProvider
    public let displayName: String
    public let lastDigits: String
    public let address: GoogleUserAddress?
    /// `PushTokenizeExtraOptions.setIsBounceProvisioned(true)`: Google Wallet started this push.
    public let isBounceProvisioned: Bool
    public let createdAt: Date
    public let expiresAt: Date

    public func isExpired(at time: Date) -> Bool { time >= expiresAt }
}
