import Foundation

extension SandboxWire {
    /// `POST /sandbox/v1/tokens/{ref}/tav`: the app hands Wallet the issuer's activation data.
    public struct TAVRequest: SandboxWireRequest, Hashable {
        public var activationData: String

        public init(activationData: String) {
            self.activationData = activationData
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case activationData = "activation_data"
        }

        public static let fieldNames = Set(CodingKeys.allCases.map(\.stringValue))
    }

    /// The answer to `POST /sandbox/v1/tokens/{ref}/otp`. The sandbox plays the cardholder's
    /// phone, so it shows the code; `channels` are where the issuer said it sent it (masked),
    /// empty when codes are not relayed through the issuer.
    public struct OTPChallenge: Codable, Sendable, Hashable {
        public var code: String
        public var expiresAt: Date
        public var channels: [IssuerConnection.OTPChannel]

        public init(_ otp: SandboxOTP, channels: [IssuerConnection.OTPChannel]) {
            self.code = otp.code
            self.expiresAt = otp.expiresAt
            self.channels = channels
        }

        enum CodingKeys: String, CodingKey {
            case code
            case expiresAt = "expires_at"
            case channels
        }
    }

    /// `POST /sandbox/v1/tokens/{ref}/otp/verification`: the code the cardholder typed.
    public struct OTPVerificationRequest: SandboxWireRequest, Hashable {
        public var code: String

        public init(code: String) {
            self.code = code
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case code
        }

        public static let fieldNames = Set(CodingKeys.allCases.map(\.stringValue))
    }

    /// The `POST /sandbox/v1/tokens/{ref}/otp` body: nothing (`{}` or no body at all).
    public struct EmptyRequest: SandboxWireRequest, Hashable {
        public init() {}

        public static let fieldNames: Set<String> = []
    }
}
