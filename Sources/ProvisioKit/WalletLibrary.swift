import Foundation
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// The app's view of Apple Wallet through `PKPassLibrary`: Core decides, this reads and maps.
///
/// On the main actor because `PKPassLibrary` is not thread-safe. Whether a Watch is paired comes
/// from the app (WatchConnectivity's `WCSession.default.isPaired`), as PassKit does not say.
@MainActor
public final class WalletLibrary {
    public let passLibrary: PKPassLibrary
    private let isWatchPaired: @MainActor () -> Bool

    public init(passLibrary: PKPassLibrary = PKPassLibrary(), isWatchPaired: @escaping @MainActor () -> Bool) {
        self.passLibrary = passLibrary
        self.isWatchPaired = isWatchPaired
    }

    /// The iPhone's and the Watch's payment passes and what the devices can take, now.
    public func snapshot() -> PassLibrarySnapshot {
        let local = passLibrary.passes(of: .secureElement).compactMap(\.secureElementPass).map { pass in
            let snapshot = PassKitMapping.snapshot(pass)
            return snapshot.device == .phone ? snapshot : Self.relocated(snapshot, to: .phone)
        }
        let remote = passLibrary.remoteSecureElementPasses.map { Self.relocated(PassKitMapping.snapshot($0), to: .watch) }
        return PassLibrarySnapshot(
            passes: local + remote, isWatchPaired: isWatchPaired(),
            canAddPaymentPasses: PKAddPaymentPassViewController.canAddPaymentPass())
    }

    /// "Add to Apple Wallet" for `card`, per device, with the reason (`AddCardDecider`).
    /// - Parameter issuerCards: every card of the cardholder the app knows (guards the last-4 fallback).
    public func addDecision(for card: WalletCard, issuerCards: [WalletCard]) -> AddCardDecision {
        AddCardDecider(library: snapshot(), issuerCards: issuerCards.map(\.identity)).decision(for: card.identity)
    }

    /// The device an add of `card` can only go to, for Provisio's `device_type`; nil when PassKit
    /// may still offer both (the cardholder picks in PassKit's sheet, and the request delegate is
    /// not told which) or neither.
    ///
    /// Why it is known then: PassKit leaves out the devices that already hold a pass with the
    /// configuration's `primaryAccountIdentifier` (Apple's
    /// PKAddPaymentPassRequestConfiguration/primaryAccountIdentifier page), and this library
    /// reads both devices' passes (`passes(of: .secureElement)` and `remoteSecureElementPasses`,
    /// Apple's PKPassLibrary pages). Wallet on an iPad is not told apart here: nil is sent.
    public func deviceType(forAdding card: WalletCard, issuerCards: [WalletCard]) -> DeviceType? {
        let devices = addDecision(for: card, issuerCards: issuerCards).addableDevices
        guard devices.count == 1, let device = devices.first else { return nil }
        return DeviceType(rawValue: device.rawValue)
    }

    /// The card's status on `device` (`WalletCardStatusResolver`).
    public func status(of card: WalletCard, on device: WalletDevice, issuerCards: [WalletCard]) -> WalletCardStatus {
        WalletCardStatusResolver(library: snapshot(), issuerCards: issuerCards.map(\.identity)).status(
            of: card.identity, on: device)
    }

    /// The status of the token with this device account identifier on `device`.
    public func status(deviceAccountIdentifier: String, on device: WalletDevice) -> WalletCardStatus {
        WalletCardStatusResolver(library: snapshot(), issuerCards: []).status(
            deviceAccountIdentifier: deviceAccountIdentifier, on: device)
    }

    /// Which list a pass came from decides its device (PassKit's local list is the iPhone's).
    private static func relocated(_ pass: WalletPassSnapshot, to device: WalletDevice) -> WalletPassSnapshot {
        WalletPassSnapshot(
            serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
            primaryAccountIdentifier: pass.primaryAccountIdentifier, primaryAccountNumberSuffix: pass.primaryAccountNumberSuffix,
            deviceAccountIdentifier: pass.deviceAccountIdentifier, activationState: pass.activationState, device: device)
    }
}
