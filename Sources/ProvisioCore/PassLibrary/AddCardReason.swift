/// Why a card can or cannot be added to one device; `allowsAdd` tells which side it is on.
public enum AddCardReason: String, Codable, Hashable, Sendable, CaseIterable {
    // The card can be added:
    /// No pass on the device can be the card's.
    case notOnDevice
    /// The card's only passes there are deactivated (their token is gone); it may be added again.
    case onlyDeactivatedPass
    /// A pass without a primary account identifier ends in the card's last 4, but so does another
    /// of the issuer's cards: it is not attributed, so it does not hide this card.
    case ambiguousLastFour

    // The card cannot be added:
    /// The iPhone (or this app on it) cannot add payment passes.
    case unsupportedDevice
    /// Asked for the Watch, but no Watch is paired.
    case noPairedWatch
    /// The card's pass is active on the iPhone.
    case alreadyOnThisDevice
    /// The card's pass is active on the Watch.
    case alreadyOnWatch
    /// The card's pass is being activated on the device.
    case activating
    /// The card's pass is on the device and waits for verification: offer to verify, not to add.
    case requiresActivation
    /// The card's pass is on the device, suspended by the issuer or the network.
    case suspended
    /// The card's passes are on the device in a state this SDK does not know or that disagree.
    case unknownPassState

    /// Whether this reason leaves the card addable to the device.
    public var allowsAdd: Bool {
        switch self {
        case .notOnDevice, .onlyDeactivatedPass, .ambiguousLastFour: true
        case .unsupportedDevice, .noPairedWatch, .alreadyOnThisDevice, .alreadyOnWatch, .activating, .requiresActivation,
            .suspended, .unknownPassState:
            false
        }
    }
}
