/// The ways Samsung Wallet offers a cardholder to verify a `PENDING_ACTIVATION` card, as the
/// sandbox models them (docs/samsung-wallet.md, "App-to-app identity verification"; the methods
/// themselves are the network's, docs/android-wallets.md §7).
public enum SamsungVerificationMethod: String, Sendable, Hashable, CaseIterable {
    /// A one-time code the network sends through the issuer (Provisio's webhook).
    case oneTimeCode = "otp_sms"
    /// "Open banking app": the wallet launches the issuer's app with the network's payload.
    case appToApp = "app_to_app"
    /// "Call bank": the issuer's agent verifies the cardholder and activates through the network.
    case customerService = "customer_service"
}
