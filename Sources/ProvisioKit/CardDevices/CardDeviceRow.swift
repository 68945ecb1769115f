import ProvisioClient

/// One device's line on the "this card on your devices" screen: the token, a label, and what the
/// cardholder may do with it now (the server refuses anything else with
/// `token_invalid_transition`, so a button for it would only fail).
public struct CardDeviceRow: Hashable, Sendable, Identifiable {
    public let token: WalletToken

    public init(token: WalletToken) {
        self.token = token
    }

    public var id: String { token.id }

    /// The changes the token's state allows, in the order a screen lists them.
    public var actions: [WalletTokenAction] {
        switch token.state {
        case .active: [.suspend, .delete]
        case .suspended: [.resume, .delete]
        case .pendingVerification: [.delete]
        case .requested, .deleted, .declined: []
        }
    }

    /// Whether the app may activate it after authenticating the cardholder (it waits for verification).
    public var canActivateInApp: Bool { token.state == .pendingVerification }

    /// The device in words, for the row's title ("Apple Watch", "Android phone"); English, for
    /// an app that does not localise its own.
    public var deviceName: String { Self.deviceName(token.wallet, token.deviceType) }

    static func deviceName(_ wallet: WalletToken.Wallet, _ deviceType: WalletToken.DeviceType?) -> String {
        switch (wallet, deviceType) {
        case (.applePay, .phone): "iPhone"
        case (.applePay, .watch): "Apple Watch"
        case (.applePay, .tablet): "iPad"
        case (_, .phone): "Android phone"
        case (_, .watch): "watch"
        case (_, .tablet): "tablet"
        case (_, nil): "device"
        }
    }

    /// The wallet in words ("Apple Pay").
    public var walletName: String {
        switch token.wallet {
        case .applePay: "Apple Pay"
        case .googlePay: "Google Pay"
        case .samsungPay: "Samsung Pay"
        }
    }
}
