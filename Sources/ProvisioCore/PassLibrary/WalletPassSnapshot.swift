/// What PassKit exposes of one secure-element (payment) pass, on the iPhone or on the paired Watch.
public struct WalletPassSnapshot: Hashable, Sendable {
    /// The pass's serial number (what Wallet's verification link names).
    public let serialNumber: String
    /// Always `paymentpass.com.apple` for payment passes.
    public let passTypeIdentifier: String
    /// The issuer's card identifier, or nil when the pass carries none (passes added from
    /// Wallet, another app or before the issuer set one); "" is normalised to nil.
    public let primaryAccountIdentifier: String?
    /// The last digits of the card Wallet shows (normally four).
    public let primaryAccountNumberSuffix: String
    /// The network's identifier of the token on this device.
    public let deviceAccountIdentifier: String
    /// The token's state; nil when PassKit reports a state this SDK does not know (a future
    /// `@unknown` case), which makes the card's status `unknown` rather than a guess.
    public let activationState: PassActivationState?
    /// Where the pass lives.
    public let device: WalletDevice

    public init(
        serialNumber: String, passTypeIdentifier: String = WalletDeepLink.paymentPassType, primaryAccountIdentifier: String?,
        primaryAccountNumberSuffix: String, deviceAccountIdentifier: String, activationState: PassActivationState?,
        device: WalletDevice
    ) {
        self.serialNumber = serialNumber
        self.passTypeIdentifier = passTypeIdentifier
        self.primaryAccountIdentifier = primaryAccountIdentifier?.isEmpty == false ? primaryAccountIdentifier : nil
        self.primaryAccountNumberSuffix = primaryAccountNumberSuffix
        self.deviceAccountIdentifier = deviceAccountIdentifier
        self.activationState = activationState
        self.device = device
    }
}
