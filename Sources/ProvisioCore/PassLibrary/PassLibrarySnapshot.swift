/// The issuer app's view of Apple Wallet at one moment: its payment passes on the iPhone and on
/// the paired Watch, and what the devices can take. ProvisioKit fills it from `PKPassLibrary`
/// (`passes(of: .secureElement)`, `remoteSecureElementPasses`, `isPaired` of the Watch session)
/// and `PKAddPaymentPassViewController.canAddPaymentPass()`.
///
/// Lookups are indexed once at init, so every decision over N cards and M passes is O(N + M).
public struct PassLibrarySnapshot: Sendable {
    /// Every pass, each tagged with its device, in the order PassKit listed them.
    public let passes: [WalletPassSnapshot]
    /// Whether an Apple Watch is paired with the iPhone.
    public let isWatchPaired: Bool
    /// Whether this app on this iPhone can add payment passes at all
    /// (`PKAddPaymentPassViewController.canAddPaymentPass()`); adds to the Watch go through the
    /// iPhone too, so false rules out both devices.
    public let canAddPaymentPasses: Bool

    private let phoneIndex: DeviceIndex
    private let watchIndex: DeviceIndex
    private let bySerialNumber: [String: [WalletPassSnapshot]]

    /// One device's passes, keyed the three ways the decisions look them up.
    private struct DeviceIndex: Sendable {
        var passes: [WalletPassSnapshot] = []
        var byPrimaryAccountIdentifier: [String: [WalletPassSnapshot]] = [:]
        var byDeviceAccountIdentifier: [String: [WalletPassSnapshot]] = [:]
        /// Passes without a primary account identifier, by their last four digits.
        var anonymousByLastFour: [String: [WalletPassSnapshot]] = [:]

        mutating func add(_ pass: WalletPassSnapshot) {
            passes.append(pass)
            if let identifier = pass.primaryAccountIdentifier {
                byPrimaryAccountIdentifier[identifier, default: []].append(pass)
            } else if let lastFour = CardIdentity.lastFourKey(pass.primaryAccountNumberSuffix) {
                anonymousByLastFour[lastFour, default: []].append(pass)
            }
            byDeviceAccountIdentifier[pass.deviceAccountIdentifier, default: []].append(pass)
        }
    }

    public init(passes: [WalletPassSnapshot], isWatchPaired: Bool, canAddPaymentPasses: Bool) {
        self.passes = passes
        self.isWatchPaired = isWatchPaired
        self.canAddPaymentPasses = canAddPaymentPasses
        // Two local indexes mutated in place: copying one out of a dictionary to append would copy
        // its tables on every pass (quadratic).
        var phone = DeviceIndex()
        var watch = DeviceIndex()
        var bySerialNumber: [String: [WalletPassSnapshot]] = [:]
        for pass in passes {
            switch pass.device {
            case .phone: phone.add(pass)
            case .watch: watch.add(pass)
            }
            bySerialNumber[pass.serialNumber, default: []].append(pass)
        }
        self.phoneIndex = phone
        self.watchIndex = watch
        self.bySerialNumber = bySerialNumber
    }

    /// An empty library on a device that can add passes, with or without a Watch.
    public static func empty(isWatchPaired: Bool = true, canAddPaymentPasses: Bool = true) -> PassLibrarySnapshot {
        PassLibrarySnapshot(passes: [], isWatchPaired: isWatchPaired, canAddPaymentPasses: canAddPaymentPasses)
    }

    /// The passes on one device (`.phone`: PassKit's local passes, `.watch`: its remote ones).
    public func passes(on device: WalletDevice) -> [WalletPassSnapshot] {
        index(device).passes
    }

    /// The passes on `device` carrying this primary account identifier.
    public func passes(primaryAccountIdentifier: String, on device: WalletDevice) -> [WalletPassSnapshot] {
        index(device).byPrimaryAccountIdentifier[primaryAccountIdentifier] ?? []
    }

    /// The passes on `device` with this device account identifier (normally at most one).
    public func passes(deviceAccountIdentifier: String, on device: WalletDevice) -> [WalletPassSnapshot] {
        index(device).byDeviceAccountIdentifier[deviceAccountIdentifier] ?? []
    }

    /// The passes on `device` without a primary account identifier whose suffix ends in `last4`.
    public func passesWithoutPrimaryAccountIdentifier(last4: String, on device: WalletDevice) -> [WalletPassSnapshot] {
        guard let key = CardIdentity.lastFourKey(last4) else { return [] }
        return index(device).anonymousByLastFour[key] ?? []
    }

    /// The pass with this serial number, on the iPhone first, then on the Watch.
    public func pass(serialNumber: String) -> WalletPassSnapshot? {
        let candidates = bySerialNumber[serialNumber] ?? []
        return candidates.first { $0.device == .phone } ?? candidates.first
    }

    /// The pass Wallet's verification link points at, on the iPhone or the Watch.
    public func pass(for link: WalletDeepLink) -> WalletPassSnapshot? {
        let candidates = bySerialNumber[link.serialNumber] ?? []
        let matching = candidates.filter { $0.passTypeIdentifier == link.passTypeIdentifier }
        return matching.first { $0.device == .phone } ?? matching.first
    }

    private func index(_ device: WalletDevice) -> DeviceIndex {
        switch device {
        case .phone: phoneIndex
        case .watch: watchIndex
        }
    }

    /// Whether `device` can take a new payment pass: the iPhone when it can add payment passes,
    /// the Watch when it can and a Watch is paired.
    public func canAddPasses(to device: WalletDevice) -> Bool {
        switch device {
        case .phone: canAddPaymentPasses
        case .watch: canAddPaymentPasses && isWatchPaired
        }
    }
}

extension PassLibrarySnapshot: Equatable {
    public static func == (lhs: PassLibrarySnapshot, rhs: PassLibrarySnapshot) -> Bool {
        lhs.passes == rhs.passes && lhs.isWatchPaired == rhs.isWatchPaired
            && lhs.canAddPaymentPasses == rhs.canAddPaymentPasses
    }
}
