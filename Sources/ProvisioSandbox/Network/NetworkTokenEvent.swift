/// A change the card network reports to the issuer (`POST /v1/network/tokens/{ref}/events`).
public enum NetworkTokenEvent: String, Codable, Hashable, Sendable, CaseIterable {
    case activated
    case otpVerified = "otp_verified"
    case suspended
    case resumed
    case deleted
    case removedFromWallet = "removed_from_wallet"
    case deviceLost = "device_lost"
    case tokenExpired = "token_expired"
}
