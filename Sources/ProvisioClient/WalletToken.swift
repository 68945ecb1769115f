import Foundation

/// One of the cardholder's cards in a wallet, on one device, as `GET /v1/mobile/tokens` lists it:
/// what a "this card on your devices" screen shows. No PAN: the card's last four digits and, when
/// the network gave them, the device token's.
public struct WalletToken: Hashable, Sendable, Identifiable {
    /// The wallet the card is in.
    public enum Wallet: String, Hashable, Sendable, CaseIterable {
        case applePay = "apple_pay"
        case googlePay = "google_pay"
        case samsungPay = "samsung_pay"
    }

    /// The device's form, when the network said (an iPhone or Android phone, a watch, a tablet).
    public enum DeviceType: String, Hashable, Sendable, CaseIterable {
        case phone
        case watch
        case tablet
    }

    /// Where the token is in its life. The list holds live tokens only (pending verification,
    /// active, suspended); `deleted` is what `deleteToken(id:)` answers.
    public enum State: String, Hashable, Sendable, CaseIterable {
        /// Asked for, not decided yet.
        case requested
        /// Added, waiting for the cardholder to be verified (the yellow path): it cannot pay yet.
        case pendingVerification = "pending_verification"
        case active
        case suspended
        /// Removed for good.
        case deleted
        /// Refused by the issuer: no pass was added.
        case declined

        /// Whether the token is still on the device (listed, and changeable).
        public var isLive: Bool { self == .pendingVerification || self == .active || self == .suspended }
    }

    /// Provisio's id of the token (`tok_…`), for the calls that change it.
    public var id: String
    /// Provisio's id of the card behind it.
    public var cardID: String
    /// The card's last four digits: what the cardholder recognises.
    public var cardLast4: String
    /// The device token's last four digits (Wallet shows them as the device account number).
    public var tokenLast4: String?
    /// The pass's device account identifier (`PKSecureElementPass.deviceAccountIdentifier`), once
    /// the network told it: how an app that Wallet opened for a pass finds its token.
    public var deviceAccountIdentifier: String?
    public var wallet: Wallet
    public var deviceType: DeviceType?
    public var state: State
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, cardID: String, cardLast4: String, tokenLast4: String? = nil, deviceAccountIdentifier: String? = nil,
        wallet: Wallet, deviceType: DeviceType? = nil, state: State, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.cardID = cardID
        self.cardLast4 = cardLast4
        self.tokenLast4 = tokenLast4
        self.deviceAccountIdentifier = deviceAccountIdentifier
        self.wallet = wallet
        self.deviceType = deviceType
        self.state = state
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
