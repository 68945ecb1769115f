import Foundation
import ProvisioSandboxAPI

extension SandboxWire {
    /// The answer to `POST /sandbox/v1/tokens/{ref}/otp`. The sandbox plays the cardholder's
    /// phone, so it shows the code; `channels` are where the issuer said it sent it (masked),
    /// empty when codes are not relayed through the issuer.
    public struct OTPChallenge: Sendable, Hashable {
        public var code: String
        public var expiresAt: Date
        public var channels: [IssuerConnection.OTPChannel]

        public init(_ otp: SandboxOTP, channels: [IssuerConnection.OTPChannel]) {
            self.code = otp.code
            self.expiresAt = otp.expiresAt
            self.channels = channels
        }

        package init(_ challenge: Components.Schemas.OTPChallenge) {
            self.code = challenge.code
            self.expiresAt = challenge.expiresAt
            self.channels = challenge.channels.map { IssuerConnection.OTPChannel(type: $0._type, masked: $0.masked) }
        }
    }
}

extension Components.Schemas.OTPChallenge {
    package init(_ challenge: SandboxWire.OTPChallenge) {
        self.init(
            code: challenge.code, expiresAt: challenge.expiresAt,
            channels: challenge.channels.map { .init(_type: $0.type, masked: $0.masked) })
    }
}
