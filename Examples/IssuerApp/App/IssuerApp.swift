// iOS only (SwiftUI): not part of the Linux build of IssuerAppExampleExtensions.
import ProvisioCore
import ProvisioKit
import SwiftUI
import UIKit

/// The example issuer app. Everything it does with Provisio is in `WalletCardsModel`; this file
/// only assembles it from the target's Info.plist and entitlements.
@main
struct IssuerApp: App {
    @State private var launch = AppLaunch.make()

    var body: some Scene {
        WindowGroup {
            switch launch {
            case .ready(let model, let warning):
                CardListView(model: model, configurationWarning: warning)
            case .misconfigured(let message):
                ContentUnavailableView(
                    "Provisio is not configured", systemImage: "wrench.and.screwdriver", description: Text(message))
            }
        }
    }
}

/// What the app starts with: the model, or why it cannot.
@MainActor
enum AppLaunch {
    /// `warning` tells the developer the Wallet extensions will offer nothing (no App Group).
    case ready(WalletCardsModel, warning: String?)
    case misconfigured(String)

    static func make() -> AppLaunch {
        let settings: IssuerAppSettings
        do {
            settings = try IssuerAppSettings.main()
        } catch {
            return .misconfigured("\(error)")
        }
        // The commonest misconfiguration: the App Group is missing from this target's
        // entitlements (`app_group_unavailable`). The in-app flows still work; Wallet's
        // "From apps on your iPhone" will not list the app.
        var storage: (any ExtensionStorage)?
        var warning: String?
        do {
            storage = try settings.makeStorage()
        } catch {
            ExampleLog.error("\(error)")
            warning = "\(error)"
        }
        let pairing = WatchPairing()
        let model = WalletCardsModel(
            settings: settings, backend: settings.makeBackend(),
            library: WalletLibrary(isWatchPaired: { pairing.isPaired }), storage: storage,
            fallbackArt: NSDataAsset(name: "DefaultCardArt")?.data,
            authenticateCardholder: { await CardholderAuthentication.authenticate() })
        pairing.onChange = { [weak model] in model?.refreshDecisions() }
        pairing.activate()
        return .ready(model, warning: warning)
    }
}
