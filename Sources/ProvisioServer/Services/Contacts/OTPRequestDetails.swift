import ProvisioCore

/// What the card network says with a one-time code beyond the code itself: the challenge, the
/// channel the cardholder chose, the masked contact it goes to (filled in by Provisio from the
/// offer, never the clear contact), the device and the token requestor. All of it is passed on
/// in the `token.otp_requested` webhook.
public struct OTPRequestDetails: Sendable, Equatable {
    public var challengeID: String
    public var channel: OTPChannelChoice
    /// The offer's masked contact; nil when the card holds none (the issuer chooses).
    public var destinationMasked: String?
    public var device: OTPDeviceInfo?
    public var tokenRequestor: TokenRequestorInfo?

    public init(
        challengeID: String, channel: OTPChannelChoice = .sms, destinationMasked: String? = nil, device: OTPDeviceInfo? = nil,
        tokenRequestor: TokenRequestorInfo? = nil
    ) {
        self.challengeID = challengeID
        self.channel = channel
        self.destinationMasked = destinationMasked
        self.device = device
        self.tokenRequestor = tokenRequestor
    }

    /// `invalid_parameter` (or `card_number_in_text`) for a challenge id that is not 1 to 64
    /// visible ASCII characters, or device or requestor fields out of their rules.
    public func validate() throws {
        guard (1...64).contains(challengeID.utf8.count), challengeID.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ProvisioError(.invalidParameter, "challenge_id must be 1 to 64 visible ASCII characters (no spaces).")
        }
        try OTPDeviceInfo.refuseWholeCardNumber(challengeID, field: "challenge_id")
        try device?.validate()
        try tokenRequestor?.validate()
    }
}
