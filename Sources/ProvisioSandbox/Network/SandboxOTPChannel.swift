/// The channel the cardholder chose in the wallet for a one-time code, among those offered.
public enum SandboxOTPChannel: String, Sendable, Hashable, CaseIterable {
    case sms
    case email

    /// The activation method the issuer names for it.
    public var method: String {
        switch self {
        case .sms: SandboxNetworkTokenService.otpActivationMethod
        case .email: "otp_email"
        }
    }
}
