/// Decides, per device, whether the app should offer to add a card to Apple Wallet.
///
/// Per device: a pass attributed to the card (by primary account identifier, or by a last 4 no
/// other issuer card shares) decides by its state — active, activating, awaiting activation or
/// suspended means no add; only deactivated passes allow adding again. Passes that are only
/// ambiguously the card's (a shared last 4) never block it. Whatever allows an add still needs
/// the device to take passes: the iPhone to be able to add payment passes, and a paired Watch.
public struct AddCardDecider: Sendable {
    /// The status resolver (and, through it, the matcher and library) the decisions come from.
    public let resolver: WalletCardStatusResolver

    /// `issuerCards`: every card of the cardholder the app knows (they guard the last-4 fallback).
    public init(library: PassLibrarySnapshot, issuerCards: [CardIdentity]) {
        self.resolver = WalletCardStatusResolver(library: library, issuerCards: issuerCards)
    }

    /// The decision for both devices.
    public func decision(for card: CardIdentity) -> AddCardDecision {
        AddCardDecision(card: card, phone: decision(for: card, on: .phone), watch: decision(for: card, on: .watch))
    }

    /// The decision for one device.
    public func decision(for card: CardIdentity, on device: WalletDevice) -> DeviceAddDecision {
        let match = resolver.matcher.match(card, on: device)
        let status = resolver.status(of: match, on: device)
        return DeviceAddDecision(device: device, reason: reason(status: status, match: match, on: device), status: status)
    }

    private func reason(status: WalletCardStatus, match: CardPassMatch, on device: WalletDevice) -> AddCardReason {
        let addable: AddCardReason
        switch status {
        case .activated: return device == .phone ? .alreadyOnThisDevice : .alreadyOnWatch
        case .activating: return .activating
        case .requiresActivation: return .requiresActivation
        case .suspended: return .suspended
        case .unknown:
            guard case .ambiguousLastFour = match else { return .unknownPassState }
            addable = .ambiguousLastFour
        case .deactivated: addable = .onlyDeactivatedPass
        case .notAdded, .unavailable: addable = .notOnDevice
        }
        return unavailability(of: device) ?? addable
    }

    /// Why `device` cannot take a new pass, or nil when it can.
    private func unavailability(of device: WalletDevice) -> AddCardReason? {
        let library = resolver.matcher.library
        if device == .watch && !library.isWatchPaired { return .noPairedWatch }
        return library.canAddPaymentPasses ? nil : .unsupportedDevice
    }
}
