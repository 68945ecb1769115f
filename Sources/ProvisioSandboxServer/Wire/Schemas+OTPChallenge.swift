import ProvisioSandbox
import ProvisioSandboxAPI

extension Components.Schemas.OTPChallenge {
    /// The sandbox plays the cardholder's phone, so it shows the code; `channels` are where the
    /// issuer said it sent it (masked), empty when codes are not relayed through the issuer.
    package init(_ otp: SandboxOTP, channels: [IssuerConnection.OTPChannel]) {
        self.init(
            code: otp.code, expiresAt: otp.expiresAt, channels: channels.map { .init(_type: $0.type, masked: $0.masked) })
    }
}
