// iOS only (UIKit, PassKit UI, WatchConnectivity, LocalAuthentication): not part of the Linux
// build of IssuerAppExampleExtensions.
import LocalAuthentication
import PassKit
import SwiftUI
import UIKit
import WatchConnectivity

/// Apple's own "Add to Apple Wallet" button (`PKAddPassButton`), as Apple's guidelines require.
struct AddToAppleWalletButton: UIViewRepresentable {
    let action: @MainActor () -> Void

    func makeUIView(context: Context) -> PKAddPassButton {
        let button = PKAddPassButton(addPassButtonStyle: .black)
        button.addTarget(context.coordinator, action: #selector(Coordinator.tapped), for: .touchUpInside)
        return button
    }

    func updateUIView(_ button: PKAddPassButton, context: Context) {
        context.coordinator.action = action
    }

    func makeCoordinator() -> Coordinator { Coordinator(action: action) }

    @MainActor
    final class Coordinator: NSObject {
        var action: @MainActor () -> Void

        init(action: @escaping @MainActor () -> Void) {
            self.action = action
        }

        @objc func tapped() { action() }
    }
}

extension UIApplication {
    /// Where PassKit's add sheet is presented from: the key window's topmost view controller.
    var topViewController: UIViewController? {
        let windows = connectedScenes.compactMap { $0 as? UIWindowScene }.flatMap(\.windows)
        var top = windows.first(where: \.isKeyWindow)?.rootViewController
        while let presented = top?.presentedViewController { top = presented }
        return top
    }
}

/// Whether an Apple Watch is paired (`WCSession.isPaired`), which PassKit does not tell the app.
/// `WalletLibrary(isWatchPaired:)` reads it for the Watch's half of every Add-button decision.
@MainActor
final class WatchPairing: NSObject, WCSessionDelegate {
    private(set) var isPaired = false
    /// Called when pairing changes (the model re-decides the buttons).
    var onChange: (@MainActor () -> Void)?

    func activate() {
        guard WCSession.isSupported() else { return }
        WCSession.default.delegate = self
        WCSession.default.activate()
    }

    nonisolated func session(
        _ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?
    ) {
        let paired = activationState == .activated && session.isPaired
        Task { @MainActor in self.update(paired) }
    }

    nonisolated func sessionWatchStateDidChange(_ session: WCSession) {
        let paired = session.activationState == .activated && session.isPaired
        Task { @MainActor in self.update(paired) }
    }

    nonisolated func sessionDidBecomeInactive(_ session: WCSession) {}

    nonisolated func sessionDidDeactivate(_ session: WCSession) {
        // The cardholder switched watches: activate again for the new one.
        WCSession.default.activate()
    }

    private func update(_ paired: Bool) {
        guard paired != isPaired else { return }
        isPaired = paired
        onChange?()
    }
}

/// The cardholder proves who they are before a card is verified from Wallet's link
/// (Face ID / Touch ID / passcode; replace with your app's own step-up if it has one).
enum CardholderAuthentication {
    @MainActor
    static func authenticate() async -> Bool {
        let context = LAContext()
        do {
            return try await context.evaluatePolicy(
                .deviceOwnerAuthentication, localizedReason: "Confirm it's you to verify your card for Apple Pay.")
        } catch {
            return false
        }
    }
}
