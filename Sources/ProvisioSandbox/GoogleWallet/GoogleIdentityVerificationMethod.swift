/// A yellow-path method Google Wallet offers for a token `NEEDS_IDENTITY_VERIFICATION`: the
/// methods the token service named for the token, those Google supports: a one-time code
/// (SMS or email, through the network and the issuer), app-to-app ([G-A2A]) and a call to the
/// issuer (docs/android-wallets.md §4, §7).
public enum GoogleIdentityVerificationMethod: String, Sendable, Hashable, CaseIterable {
    case otp
    case appToApp = "app_to_app"
    case customerService = "customer_service"

    /// The method for the network's word (`otp_sms`, `app_to_app`, `customer_service`); nil for
    /// one Google Wallet does not offer.
    public init?(networkWord: String) {
        switch networkWord {
        case SandboxNetworkTokenService.otpActivationMethod, SandboxOTPChannel.email.method: self = .otp
        case "app_to_app": self = .appToApp
        case "customer_service": self = .customerService
        default: return nil
        }
    }
}
