import Foundation

// MARK: - Not part of Apple's API
//
// The app the stand-in runs in. On a device, PassKit knows the calling app's application
// identifier (`TEAMID.bundle.id`) from its signature, and `PKPassLibrary` shows a payment pass
// only to the apps its card product associates with it (the issuer's
// `associatedApplicationIdentifiers`). Tests name the app with
// `PassKitStandInEnvironment.$applicationIdentifier.withValue(_:operation:)`, as they install
// the device; `PKPassLibrary` captures it when it is created.

extension PassKitStandInEnvironment {
    /// The calling app's application identifier, `TEAMID.bundle.id` (not part of Apple's API);
    /// nil: an app that names none, which sees only the passes whose cards have no product.
    @TaskLocal public static var applicationIdentifier: String?
}

extension PassKitStandInPass {
    /// Whether the app with this application identifier sees the pass in its `PKPassLibrary`
    /// (not part of Apple's API): a pass with associated apps only in those apps, compared
    /// exactly; a pass without (a card with no product) in every app.
    public func isVisible(toApplication applicationIdentifier: String?) -> Bool {
        guard let associated = associatedApplicationIdentifiers else { return true }
        guard let applicationIdentifier else { return false }
        return associated.contains(applicationIdentifier)
    }
}
