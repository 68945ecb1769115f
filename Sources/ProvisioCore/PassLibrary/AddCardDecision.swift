/// The Add-button decision for one card: the iPhone and the paired Watch, decided separately.
public struct AddCardDecision: Codable, Hashable, Sendable {
    /// The card decided about.
    public let card: CardIdentity
    /// The decision for the iPhone.
    public let phone: DeviceAddDecision
    /// The decision for the paired Watch.
    public let watch: DeviceAddDecision

    public init(card: CardIdentity, phone: DeviceAddDecision, watch: DeviceAddDecision) {
        self.card = card
        self.phone = phone
        self.watch = watch
    }

    /// The decision for one device.
    public subscript(device: WalletDevice) -> DeviceAddDecision {
        switch device {
        case .phone: phone
        case .watch: watch
        }
    }

    /// Show "Add to Apple Wallet" at all: the card can go to at least one device (PassKit then
    /// lets the cardholder pick the device).
    public var showsAddButton: Bool { phone.canAdd || watch.canAdd }

    /// The devices the card can be added to, iPhone first.
    public var addableDevices: [WalletDevice] { [phone, watch].filter(\.canAdd).map(\.device) }
}
