import ProvisioCore

/// A payment pass in the sandbox wallet, with the fields PassKit's `PKSecureElementPass`
/// exposes to the issuer app. It holds the last four digits of the card, never the PAN.
public struct SandboxPass: Sendable, Hashable, Identifiable {
    /// Apple's pass type identifier for every payment pass.
    public static let paymentPassTypeIdentifier = "paymentpass.com.apple"

    public let serialNumber: String
    public let passTypeIdentifier: String
    /// The issuer's identifier of the card (what the app set in the add request configuration).
    public let primaryAccountIdentifier: String
    /// The card's last four digits; the network changes them when the issuer reissues the card
    /// under a new number (MDES's token update).
    public internal(set) var primaryAccountNumberSuffix: String
    /// The network's identifier of the token on this device.
    public let deviceAccountIdentifier: String
    public internal(set) var activationState: SandboxPassActivationState
    public let deviceKind: SandboxDeviceKind
    /// The card details Wallet shows on the pass; the network updates them when the issuer
    /// reissues the card (a new expiry, new art).
    public internal(set) var details: CardDetails

    public var id: String { serialNumber }

    /// True when the pass is on the paired Watch (a "remote" pass, seen from the iPhone).
    public var isRemote: Bool { deviceKind.isRemote }

    init(
        serialNumber: String, primaryAccountIdentifier: String, primaryAccountNumberSuffix: String,
        deviceAccountIdentifier: String, activationState: SandboxPassActivationState, deviceKind: SandboxDeviceKind,
        details: CardDetails = CardDetails()
    ) {
        self.details = details
        self.serialNumber = serialNumber
        self.passTypeIdentifier = Self.paymentPassTypeIdentifier
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.primaryAccountNumberSuffix = primaryAccountNumberSuffix
        self.deviceAccountIdentifier = deviceAccountIdentifier
        self.activationState = activationState
        self.deviceKind = deviceKind
    }
}
