/// What identifies one of the issuer's cards in Apple Wallet: the primary account identifier the
/// app puts in every add request, and the last four digits Wallet shows.
public struct CardIdentity: Codable, Hashable, Sendable {
    /// The issuer's identifier of the card (`PKAddPaymentPassRequestConfiguration.primaryAccountIdentifier`).
    public var primaryAccountIdentifier: String
    /// The card's last four digits (`primaryAccountSuffix`).
    public var last4: String

    public init(primaryAccountIdentifier: String, last4: String) {
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.last4 = last4
    }

    /// The last four digits of `suffix` (ignoring anything that is not a digit, so "•••• 1234"
    /// and "1234" compare equal), or nil when it holds fewer than four digits.
    static func lastFourKey(_ suffix: String) -> String? {
        let digits = suffix.unicodeScalars.filter { ("0"..."9").contains($0) }
        guard digits.count >= 4 else { return nil }
        return String(String.UnicodeScalarView(digits.suffix(4)))
    }
}
