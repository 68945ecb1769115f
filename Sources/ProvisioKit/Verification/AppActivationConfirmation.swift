import ProvisioClient

/// What the cardholder is asked before the app activates a pending token: the card's last four
/// digits and the device, so they confirm the card they mean on the device they mean
/// (`InAppVerification.activateAfterAppAuthentication(_:client:confirm:)`).
public struct AppActivationConfirmation: Hashable, Sendable {
    /// The token to be activated (`tok_…`).
    public let tokenID: String
    /// The card's last four digits.
    public let cardLast4: String
    public let wallet: WalletToken.Wallet
    public let deviceType: WalletToken.DeviceType?

    public init(token: WalletToken) {
        self.tokenID = token.id
        self.cardLast4 = token.cardLast4
        self.wallet = token.wallet
        self.deviceType = token.deviceType
    }

    /// A question the app can show as it is: "Activate the card ending 1111 on this Apple Watch?".
    public var prompt: String {
        "Activate the card ending \(cardLast4) on this \(CardDeviceRow.deviceName(wallet, deviceType))?"
    }
}
