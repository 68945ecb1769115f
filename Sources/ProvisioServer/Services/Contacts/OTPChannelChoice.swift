/// The channel the cardholder chose for a one-time code, among those offered.
public enum OTPChannelChoice: String, Sendable, Equatable, CaseIterable {
    case sms
    case email
}
