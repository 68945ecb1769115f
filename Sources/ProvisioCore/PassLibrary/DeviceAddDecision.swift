/// Whether a card can be added to one device, and why.
public struct DeviceAddDecision: Codable, Hashable, Sendable {
    /// The device decided for.
    public let device: WalletDevice
    /// Why the card can or cannot be added there.
    public let reason: AddCardReason
    /// The card's status on the device the decision was made from.
    public let status: WalletCardStatus

    public init(device: WalletDevice, reason: AddCardReason, status: WalletCardStatus) {
        self.device = device
        self.reason = reason
        self.status = status
    }

    /// True when the card can be added to this device.
    public var canAdd: Bool { reason.allowsAdd }
}
